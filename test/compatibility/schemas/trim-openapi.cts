/**
 * Makes the trimmed copy of WAHA's OpenAPI document that the compatibility test reads: every path
 * and method (so "no such endpoint" is judged against the whole API), each with only what a request
 * is checked against (path and query parameters, the JSON request body), plus the component schemas
 * those reach. Responses and annotations (descriptions, examples) are left out: they validate nothing.
 *
 *   node test/support/run-ts.js test/compatibility/schemas/trim-openapi.cts <openapi.json> <out.json>
 */
import * as fs from 'node:fs';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const ANNOTATIONS = new Set(['description', 'example', 'examples', 'title', 'deprecated']);
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

function isObject(value: Json | undefined): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A schema without annotations; `properties` keys are property names, kept whatever they are called. */
export function stripSchema(schema: Json): Json {
	if (!isObject(schema)) return schema;
	const result: JsonObject = {};
	for (const [keyword, value] of Object.entries(schema)) {
		if (ANNOTATIONS.has(keyword)) continue;
		if (keyword === 'properties' && isObject(value)) {
			result.properties = Object.fromEntries(
				Object.entries(value).map(([name, child]) => [name, stripSchema(child)]),
			);
		} else if (Array.isArray(value) && ['allOf', 'oneOf', 'anyOf'].includes(keyword)) {
			result[keyword] = value.map(stripSchema);
		} else if (['items', 'additionalProperties', 'not'].includes(keyword)) {
			result[keyword] = stripSchema(value);
		} else {
			result[keyword] = value;
		}
	}
	return result;
}

function componentRefs(value: Json, found: Set<string>): void {
	if (Array.isArray(value)) value.forEach((child) => componentRefs(child, found));
	else if (isObject(value)) {
		for (const [key, child] of Object.entries(value)) {
			if (key === '$ref' && typeof child === 'string') found.add(child.replace(/^.*\//, ''));
			else componentRefs(child, found);
		}
	}
}

export function trimOpenApi(document: JsonObject): JsonObject {
	const paths: JsonObject = {};
	for (const [path, item] of Object.entries(document.paths as JsonObject)) {
		const methods: JsonObject = {};
		for (const [method, operation] of Object.entries(item as JsonObject)) {
			if (!HTTP_METHODS.has(method) || !isObject(operation)) continue;
			const trimmed: JsonObject = { operationId: operation.operationId ?? null };
			if (Array.isArray(operation.parameters)) {
				trimmed.parameters = operation.parameters.map((parameter) => {
					const { name, in: where, required, schema } = parameter as JsonObject;
					return { name, in: where, required: required === true, schema: stripSchema(schema) };
				});
			}
			const body = operation.requestBody;
			if (isObject(body) && isObject(body.content)) {
				const json = body.content['application/json'];
				trimmed.requestBody = {
					required: body.required === true,
					content: isObject(json)
						? { 'application/json': { schema: stripSchema(json.schema) } }
						: {},
				};
			}
			methods[method] = trimmed;
		}
		paths[path] = methods;
	}
	const allSchemas = (document.components as JsonObject).schemas as JsonObject;
	const kept = new Set<string>();
	const pending = new Set<string>();
	componentRefs(paths, pending);
	while (pending.size > 0) {
		const [name] = pending;
		pending.delete(name);
		if (kept.has(name)) continue;
		kept.add(name);
		componentRefs(allSchemas[name], pending);
	}
	const info = document.info as JsonObject;
	return {
		openapi: document.openapi,
		info: { title: info.title, version: info.version },
		paths,
		components: {
			securitySchemes: (document.components as JsonObject).securitySchemes,
			schemas: Object.fromEntries(
				[...kept].sort().map((name) => [name, stripSchema(allSchemas[name])]),
			),
		},
	};
}

if (process.argv[1] === __filename) {
	const [input, output] = process.argv.slice(2);
	if (!input || !output) {
		console.error('usage: trim-openapi.cts <openapi.json> <out.json>');
		process.exit(2);
	}
	const trimmed = trimOpenApi(JSON.parse(fs.readFileSync(input, 'utf8')) as JsonObject);
	fs.writeFileSync(output, `${JSON.stringify(trimmed, null, '\t')}\n`);
	console.log(`${output}: ${Object.keys(trimmed.paths as JsonObject).length} paths`);
}
