/**
 * Restates Evolution API v2's request validation as JSON (evolution-<version>.json) from a git checkout
 * of its source at a release tag: every route its routers declare (method, path, the RouterBroker
 * validator the handler calls and the name of the schema it passes), and the schema objects, evaluated.
 *
 *   node test/support/run-ts.js test/compatibility/schemas/evolution-schemas.cts <checkout> <out.json>
 *
 * Routers are read, not run: from src/api/routes/index.router.ts down every `.use('/prefix', new
 * XRouter(…).router)`, each `.get/.post/.put/.delete/.patch(path, …)` with its path as written or built
 * by `this.routerPath(name, param = true)`, and in its handler the `this.<validator>({ schema })` call.
 * Schemas are evaluated: their files are transpiled with this project's TypeScript and run with the
 * checkout's own modules (path aliases from its tsconfig.json); `uuid`'s v4 (their random `$id`) is the
 * only package they may need, and the `$id`s it made are left out. Nothing is written for the product's
 * code beyond these interface facts.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

import * as ts from 'typescript';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Route {
	method: string;
	path: string;
	validator: string;
	schema: string | null;
}

/** What `uuid`'s v4 returns while schemas are evaluated: the `$id`s holding it are dropped. */
const RANDOM_ID = 'random-uuid-of-this-start';
const EMPTY_SCHEMA = 'emptySchema';
const HTTP_METHODS = new Set(['get', 'post', 'put', 'delete', 'patch']);
const SCHEMA_DIRECTORY = 'src/validate';

class Checkout {
	private readonly aliases: Array<{ prefix: string; wildcard: boolean; target: string }>;
	private readonly modules = new Map<string, Record<string, unknown>>();

	constructor(readonly root: string) {
		const { config } = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
		const options = config.compilerOptions as {
			baseUrl?: string;
			paths?: Record<string, string[]>;
		};
		const base = path.join(root, options.baseUrl ?? '.');
		this.aliases = Object.entries(options.paths ?? {}).map(([alias, [target]]) => ({
			prefix: alias.replace(/\*$/, ''),
			wildcard: alias.endsWith('*'),
			target: path.join(base, target.replace(/\*$/, '')),
		}));
	}

	relative(file: string): string {
		return path.relative(this.root, file).split(path.sep).join('/');
	}

	/** The .ts file an import names, or undefined for a package. */
	resolve(specifier: string, from: string): string | undefined {
		let base: string | undefined;
		if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
		for (const alias of this.aliases) {
			if (alias.wildcard ? specifier.startsWith(alias.prefix) : specifier === alias.prefix)
				base = alias.target + specifier.slice(alias.prefix.length);
		}
		if (base === undefined) return undefined;
		const file = [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) =>
			fs.existsSync(candidate),
		);
		if (!file)
			throw new Error(`${specifier} (imported by ${this.relative(from)}) is not in the checkout`);
		return file;
	}

	/** Runs a module of the checkout (CommonJS, as Evolution builds it) and returns its exports. */
	load(file: string): Record<string, unknown> {
		const cached = this.modules.get(file);
		if (cached) return cached;
		const module = { exports: {} as Record<string, unknown> };
		this.modules.set(file, module.exports);
		const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
			fileName: file,
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
		});
		const requireFrom = (specifier: string): unknown => {
			const target = this.resolve(specifier, file);
			if (target) return this.load(target);
			if (specifier === 'uuid') return { v4: () => RANDOM_ID };
			throw new Error(`${this.relative(file)} needs the package ${specifier} to be evaluated`);
		};
		new Function('exports', 'require', 'module', outputText)(module.exports, requireFrom, module);
		this.modules.set(file, module.exports);
		return module.exports;
	}

	parse(file: string): ts.SourceFile {
		return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
	}
}

/** The module an imported name comes from, as the file's import declarations say. */
function importedFrom(source: ts.SourceFile, name: string): string | undefined {
	for (const statement of source.statements) {
		if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
			continue;
		const bindings = statement.importClause?.namedBindings;
		if (bindings && ts.isNamedImports(bindings)) {
			if (bindings.elements.some((element) => element.name.text === name))
				return statement.moduleSpecifier.text;
		}
	}
	return undefined;
}

function joinPaths(prefix: string, suffix: string): string {
	const joined = `${prefix}/${suffix}`.replace(/\/+/g, '/').replace(/\/$/, '');
	return joined === '' ? '/' : joined;
}

/** Express's `:name` as `{name}`, the template form the checkers match. */
function template(expressPath: string): string {
	return expressPath.replace(/:(\w+)/g, '{$1}');
}

/** The path a route call declares: a string, or RouterBroker.routerPath(name, param = true). */
function routePath(argument: ts.Expression): string | undefined {
	if (ts.isStringLiteral(argument)) return argument.text;
	if (
		ts.isCallExpression(argument) &&
		ts.isPropertyAccessExpression(argument.expression) &&
		argument.expression.name.text === 'routerPath'
	) {
		const [name, param] = argument.arguments;
		if (!name || !ts.isStringLiteral(name)) return undefined;
		const withParam = !param || param.kind !== ts.SyntaxKind.FalseKeyword;
		return `/${name.text}${withParam ? '/:instanceName' : ''}`;
	}
	return undefined;
}

/** `.get(path, …handlers)` of a router, not `.get(name)` of a config or request: it ends in a handler. */
function isRouteCall(call: ts.CallExpression): boolean {
	const last = call.arguments[call.arguments.length - 1];
	return call.arguments.length >= 2 && (ts.isArrowFunction(last) || ts.isFunctionExpression(last));
}

interface SchemaUse {
	validator: string;
	schema: ts.Expression | undefined;
}

/** The `this.<validator>({ …, schema, … })` call of a route handler, if it makes one. */
function schemaUse(handler: ts.Node): SchemaUse | undefined {
	let found: SchemaUse | undefined;
	const visit = (node: ts.Node): void => {
		if (
			!found &&
			ts.isCallExpression(node) &&
			ts.isPropertyAccessExpression(node.expression) &&
			node.expression.expression.kind === ts.SyntaxKind.ThisKeyword &&
			node.arguments[0] &&
			ts.isObjectLiteralExpression(node.arguments[0])
		) {
			const property = node.arguments[0].properties.find(
				(candidate) =>
					candidate.name && ts.isIdentifier(candidate.name) && candidate.name.text === 'schema',
			);
			if (property) {
				found = {
					validator: node.expression.name.text,
					schema: ts.isPropertyAssignment(property) ? property.initializer : undefined,
				};
			}
		}
		ts.forEachChild(node, visit);
	};
	visit(handler);
	return found;
}

class RouterReader {
	readonly routes: Route[] = [];
	readonly files = new Set<string>();
	/** Schema name -> the module whose export it is. */
	readonly schemaModules = new Map<string, string>();

	constructor(private readonly checkout: Checkout) {}

	read(file: string, prefix: string): void {
		this.files.add(this.checkout.relative(file));
		const source = this.checkout.parse(file);
		const visit = (node: ts.Node): void => {
			if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
				const method = node.expression.name.text;
				const [first] = node.arguments;
				if (method === 'use' && first && ts.isStringLiteral(first))
					this.mount(source, node, prefix);
				else if (HTTP_METHODS.has(method) && first && isRouteCall(node)) {
					const declared = routePath(first);
					if (declared !== undefined) this.route(source, node, method, joinPaths(prefix, declared));
				}
			}
			ts.forEachChild(node, visit);
		};
		visit(source);
	}

	private mount(source: ts.SourceFile, call: ts.CallExpression, prefix: string): void {
		const [where, router] = call.arguments as unknown as [
			ts.StringLiteral,
			ts.Expression | undefined,
		];
		if (
			!router ||
			!ts.isPropertyAccessExpression(router) ||
			!ts.isNewExpression(router.expression) ||
			!ts.isIdentifier(router.expression.expression)
		)
			throw new Error(`${source.fileName}: .use('${where.text}', …) mounts something unexpected`);
		const className = router.expression.expression.text;
		const specifier = importedFrom(source, className);
		const file = specifier && this.checkout.resolve(specifier, source.fileName);
		if (!file) throw new Error(`${source.fileName}: where ${className} comes from is not found`);
		this.read(file, joinPaths(prefix, where.text));
	}

	private route(
		source: ts.SourceFile,
		call: ts.CallExpression,
		method: string,
		routed: string,
	): void {
		const use = schemaUse(call.arguments[call.arguments.length - 1]);
		let schema: string | null = null;
		if (use?.schema && ts.isIdentifier(use.schema)) {
			schema = use.schema.text;
			const specifier = importedFrom(source, schema);
			const file = specifier && this.checkout.resolve(specifier, source.fileName);
			if (!file) throw new Error(`${source.fileName}: where ${schema} comes from is not found`);
			this.schemaModules.set(schema, file);
		} else if (use?.schema && ts.isObjectLiteralExpression(use.schema)) {
			if (use.schema.properties.length > 0)
				throw new Error(`${source.fileName}: ${routed} passes a schema written in place`);
			schema = EMPTY_SCHEMA;
		} else if (use?.schema && use.schema.kind !== ts.SyntaxKind.NullKeyword) {
			throw new Error(`${source.fileName}: ${routed} passes a schema this script cannot name`);
		}
		this.routes.push({
			method: method.toUpperCase(),
			path: template(routed),
			// A handler that calls no RouterBroker validator checks what it checks in its own code.
			validator: use?.validator ?? 'inline',
			schema,
		});
	}
}

/** The value without the `$id`s uuid made; anything else holding one is an error. */
function withoutRandomIds(value: unknown, where: string): Json {
	if (value === RANDOM_ID) throw new Error(`${where} holds a random id`);
	if (Array.isArray(value))
		return value.map((item, index) => withoutRandomIds(item, `${where}[${index}]`));
	if (typeof value === 'object' && value !== null) {
		return Object.fromEntries(
			Object.entries(value)
				.filter(([key, child]) => !(key === '$id' && child === RANDOM_ID))
				.map(([key, child]) => [key, withoutRandomIds(child, `${where}.${key}`)]),
		);
	}
	if (value === undefined || typeof value === 'function')
		throw new Error(`${where} is not JSON (${typeof value})`);
	return value as Json;
}

function git(root: string, ...args: string[]): string {
	return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' }).trim();
}

export function evolutionSchemas(root: string): Record<string, Json> {
	const checkout = new Checkout(path.resolve(root));
	const reader = new RouterReader(checkout);
	reader.read(path.join(checkout.root, 'src/api/routes/index.router.ts'), '');

	// Every schema src/validate declares, and those the routes take from elsewhere.
	const schemaFiles = fs
		.readdirSync(path.join(checkout.root, SCHEMA_DIRECTORY))
		.filter((name) => name.endsWith('.schema.ts') && name !== 'validate.schema.ts')
		.map((name) => path.join(checkout.root, SCHEMA_DIRECTORY, name));
	const schemas = new Map<string, { value: Json; file: string }>();
	const add = (name: string, value: unknown, file: string): void => {
		const json = withoutRandomIds(value, name);
		const known = schemas.get(name);
		if (known && JSON.stringify(known.value) !== JSON.stringify(json))
			throw new Error(`${name} differs in ${known.file} and ${checkout.relative(file)}`);
		schemas.set(name, { value: json, file: known?.file ?? checkout.relative(file) });
	};
	for (const file of schemaFiles) {
		for (const [name, value] of Object.entries(checkout.load(file))) add(name, value, file);
	}
	for (const [name, file] of reader.schemaModules) {
		const value = checkout.load(file)[name];
		if (value === undefined) throw new Error(`${checkout.relative(file)} does not export ${name}`);
		add(name, value, file);
	}
	const modules = [...new Set([...schemas.values()].map((schema) => schema.file))].sort();
	if (reader.routes.some((route) => route.schema === EMPTY_SCHEMA))
		schemas.set(EMPTY_SCHEMA, { value: {}, file: '' });

	const packageJson = JSON.parse(fs.readFileSync(path.join(checkout.root, 'package.json'), 'utf8'));
	const lock = JSON.parse(fs.readFileSync(path.join(checkout.root, 'package-lock.json'), 'utf8'));
	const mounts = [
		...new Set(
			reader.routes
				.map((route) => route.path.split('/')[1])
				.filter((segment) => segment !== '')
				.map((segment) => `/${segment}`),
		),
	];
	const version = packageJson.version as string;
	return {
		about:
			`Request validation of Evolution API ${version}: every route its routers declare (method, path; ` +
			'validator: the RouterBroker method the handler calls, or "inline" where the handler checks in its own ' +
			"code and calls none; schema: the name of the JSON schema it passes to jsonschema's validate(), null " +
			'where it passes none, which validates nothing, emptySchema where it passes {}) and every schema ' +
			'object of src/validate/*.schema.ts and of the routes, evaluated (random $id left out). Express ' +
			'wildcard paths (/manager/*, /assets/*) are kept as written. Written by evolution-schemas.cts; see ' +
			'README.md here.',
		source: {
			repository: 'https://github.com/EvolutionAPI/evolution-api',
			tag: git(checkout.root, 'describe', '--tags', '--exact-match', 'HEAD'),
			commit: git(checkout.root, 'rev-parse', 'HEAD'),
			version,
			routes: [...reader.files],
			validators: 'src/api/abstract/abstract.router.ts',
			schemas: modules,
			validatorPackage: 'jsonschema',
			validatorVersion: lock.packages['node_modules/jsonschema'].version,
		},
		mounts,
		routes: reader.routes as unknown as Json,
		schemas: Object.fromEntries([...schemas].map(([name, { value }]) => [name, value])),
	};
}

if (process.argv[1] === __filename) {
	const [checkout, output] = process.argv.slice(2);
	if (!checkout || !output) {
		console.error('usage: evolution-schemas.cts <evolution-api checkout at a tag> <out.json>');
		process.exit(2);
	}
	const restated = evolutionSchemas(checkout);
	fs.writeFileSync(output, `${JSON.stringify(restated, null, '\t')}\n`);
	const routes = restated.routes as Json[];
	console.log(
		`${output}: ${routes.length} routes, ${Object.keys(restated.schemas as object).length} schemas`,
	);
}
