/**
 * Judges a request against WAHA's published OpenAPI document (schemas/waha-2026.7.1.openapi.json):
 * the path and method must exist, required path and query parameters must be there, query values
 * and the JSON body must be valid for their schemas (checked with ajv).
 *
 * The document is what NestJS's swagger module generates from WAHA's DTO classes, and three of its
 * habits are not JSON Schema, so each schema is adapted before ajv sees it (see `adaptSchema`):
 * - `nullable: true` (OpenAPI 3.0) becomes "or null";
 * - `oneOf` of TypeScript unions becomes `anyOf`: Nest lists the members of `RemoteFile | BinaryFile`
 *   as oneOf, but nothing in WAHA makes them exclusive, and members without required properties
 *   (`FileURL {url}`, `FileContent {data}`) would otherwise each match any object and fail oneOf;
 * - a field declared only by an initializer (`multipleAnswers = false;` in WAHA's
 *   src/structures/chatting.dto.ts) is typed `object` with that default: it gets the default's type;
 * - `required: true` on a property's own schema (swagger 2 style, e.g. MessagePollVoteRequest.votes)
 *   is not JSON Schema's list of required properties: it is dropped;
 * - a list of a TypeScript string union validated with `@IsEnum(…, {each: true})` (WebhookConfig.events,
 *   WAHA's event names, the only such list) has bare `{type: object}` items, nothing declared: its
 *   items are texts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';

import { matchTemplate } from './verdicts.cts';
import type { SentRequest, Verdict } from './verdicts.cts';

type Schema = Record<string, unknown>;

interface Parameter {
	name: string;
	in: 'path' | 'query' | 'header' | 'cookie';
	required: boolean;
	schema?: Schema;
}

interface Operation {
	operationId: string | null;
	parameters?: Parameter[];
	requestBody?: { required: boolean; content: { 'application/json'?: { schema: Schema } } };
}

interface OpenApiDocument {
	info: { title: string; version: string };
	paths: Record<string, Record<string, Operation>>;
	components: { securitySchemes: Record<string, Schema>; schemas: Record<string, Schema> };
}

export const WAHA: OpenApiDocument = JSON.parse(
	fs.readFileSync(path.join(__dirname, 'schemas', 'waha-2026.7.1.openapi.json'), 'utf8'),
);

const COMPONENTS_ID = 'waha-components';

function jsonType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

/** The OpenAPI schema as JSON Schema ajv validates: see the adaptations at the top. */
export function adaptSchema(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(adaptSchema);
	if (typeof schema !== 'object' || schema === null) return schema;
	const result: Schema = {};
	for (const [keyword, value] of Object.entries(schema as Schema)) {
		if (keyword === 'nullable' || (keyword === 'required' && !Array.isArray(value))) continue;
		if (keyword === '$ref' && typeof value === 'string') {
			result.$ref = value.replace('#/components/schemas/', `${COMPONENTS_ID}#/definitions/`);
		} else if (keyword === 'properties') {
			result.properties = Object.fromEntries(
				Object.entries(value as Schema).map(([name, child]) => [name, adaptSchema(child)]),
			);
		} else {
			result[keyword === 'oneOf' ? 'anyOf' : keyword] = adaptSchema(value);
		}
	}
	if (result.type === 'object' && 'default' in result && jsonType(result.default) !== 'object') {
		result.type = jsonType(result.default);
	}
	const items = result.items as Schema | undefined;
	if (result.type === 'array' && items?.type === 'object' && Object.keys(items).length === 1) {
		result.items = { type: 'string' };
	}
	return (schema as Schema).nullable === true ? { anyOf: [result, { type: 'null' }] } : result;
}

function newAjv(options: { coerceTypes?: 'array' } = {}): Ajv {
	const ajv = new Ajv({ allErrors: true, strict: false, ...options });
	ajv.addSchema({
		$id: COMPONENTS_ID,
		definitions: Object.fromEntries(
			Object.entries(WAHA.components.schemas).map(([name, schema]) => [name, adaptSchema(schema)]),
		),
	});
	return ajv;
}

const bodyAjv = newAjv();
// Query values arrive as text: WAHA's validation pipe transforms them into the declared types.
const queryAjv = newAjv({ coerceTypes: 'array' });
const compiled = new Map<string, ValidateFunction>();

function compile(ajv: Ajv, key: string, schema: Schema): ValidateFunction {
	let validator = compiled.get(key);
	if (!validator) {
		validator = ajv.compile(adaptSchema(schema) as Schema);
		compiled.set(key, validator);
	}
	return validator;
}

/** Short English: "body lacks chatId, session", "body.preview.image must be object". */
function describeErrors(where: string, errors: ErrorObject[]): string[] {
	const missing = new Map<string, string[]>();
	const others: string[] = [];
	for (const error of errors) {
		const at = [where, ...error.instancePath.split('/').filter(Boolean)].join('.');
		if (error.keyword === 'required') {
			const name = (error.params as { missingProperty: string }).missingProperty;
			missing.set(at, [...(missing.get(at) ?? []), name]);
		} else if (error.keyword !== 'anyOf') {
			others.push(`${at} ${error.message}`);
		}
	}
	const lacks = [...missing].map(([at, names]) => `${at} lacks ${[...new Set(names)].join(', ')}`);
	return [...new Set([...lacks, ...others])];
}

function parameterReasons(
	operation: Operation,
	request: SentRequest,
	pathValues: Record<string, string>,
) {
	const reasons: string[] = [];
	const missingQuery: string[] = [];
	for (const parameter of operation.parameters ?? []) {
		if (parameter.in !== 'path' && parameter.in !== 'query') continue;
		const value =
			parameter.in === 'path' ? pathValues[parameter.name] : request.query[parameter.name];
		if (value === undefined || value === '') {
			if (parameter.required) missingQuery.push(parameter.name);
			continue;
		}
		const schema = { type: 'object', properties: { [parameter.name]: parameter.schema ?? {} } };
		const check = compile(queryAjv, `${operation.operationId}:${parameter.name}`, schema);
		if (!check({ [parameter.name]: value }))
			reasons.push(...describeErrors('query', check.errors ?? []));
	}
	if (missingQuery.length > 0) reasons.unshift(`query lacks ${missingQuery.join(', ')}`);
	return reasons;
}

export function checkWaha(request: SentRequest): Verdict {
	const matched = matchTemplate(request.path, Object.keys(WAHA.paths));
	if (!matched) return { outcome: 'absent', reason: 'no such endpoint' };
	const methods = WAHA.paths[matched.template];
	const operation = methods[request.method.toLowerCase()];
	if (!operation) {
		const others = Object.keys(methods).map((method) => method.toUpperCase());
		return { outcome: 'absent', reason: `no ${request.method} route, only ${others.join(', ')}` };
	}
	const endpoint = `${request.method} ${matched.template}`;
	const reasons = parameterReasons(operation, request, matched.values);
	const bodySchema = operation.requestBody?.content['application/json']?.schema;
	if (bodySchema) {
		if (request.body === undefined) {
			if (operation.requestBody?.required) reasons.push('no JSON body');
		} else {
			const check = compile(bodyAjv, `${operation.operationId}:body`, bodySchema);
			if (!check(request.body)) reasons.push(...describeErrors('body', check.errors ?? []));
		}
	}
	return reasons.length === 0
		? { outcome: 'accepted', endpoint }
		: { outcome: 'rejected', endpoint, reasons };
}
