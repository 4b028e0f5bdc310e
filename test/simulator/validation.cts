// Body validation in the words each product uses: jsonschema (Evolution) and class-validator (WAHA).
import { evolutionError, nestError } from './errors.cts';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as an object; a missing or non-object body validates like `{}`. */
export function bodyObject(body: unknown): JsonObject {
	return isObject(body) ? body : {};
}

// ---- Evolution: a subset of JSON schema, reporting errors the way the `jsonschema` package does ----

export interface Schema {
	type?: 'object' | 'string' | 'number' | 'integer' | 'boolean' | 'array';
	properties?: Record<string, Schema>;
	required?: string[];
	items?: Schema;
	enum?: readonly string[];
	minLength?: number;
	minItems?: number;
	uniqueItems?: boolean;
	pattern?: string;
	/** Evolution's dataValidate shows a failing node's description instead of the generated message. */
	description?: string;
}

export interface SchemaError {
	property: string;
	message: string;
	schema: Schema;
}

function hasType(value: unknown, type: NonNullable<Schema['type']>): boolean {
	switch (type) {
		case 'object':
			return isObject(value);
		case 'array':
			return Array.isArray(value);
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value);
		case 'number':
			return typeof value === 'number' && Number.isFinite(value);
		default:
			return typeof value === type;
	}
}

export function validateSchema(
	value: unknown,
	schema: Schema,
	property = 'instance',
): SchemaError[] {
	const errors: SchemaError[] = [];
	const fail = (message: string) => errors.push({ property, message, schema });
	if (schema.type && !hasType(value, schema.type)) {
		fail(`is not of a type(s) ${schema.type}`);
		return errors;
	}
	if (isObject(value)) {
		for (const [key, child] of Object.entries(schema.properties ?? {})) {
			if (value[key] !== undefined)
				errors.push(...validateSchema(value[key], child, `${property}.${key}`));
		}
		for (const key of schema.required ?? []) {
			if (value[key] === undefined) fail(`requires property ${JSON.stringify(key)}`);
		}
	}
	if (schema.enum && !schema.enum.includes(value as string)) {
		fail(`is not one of enum values: ${schema.enum.join(',')}`);
	}
	if (typeof value === 'string') {
		if (schema.minLength !== undefined && value.length < schema.minLength) {
			fail(`does not meet minimum length of ${schema.minLength}`);
		}
		if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) {
			fail(`does not match pattern ${JSON.stringify(schema.pattern)}`);
		}
	}
	if (Array.isArray(value)) {
		if (schema.minItems !== undefined && value.length < schema.minItems) {
			fail(`does not meet minimum length of ${schema.minItems}`);
		}
		const distinct = new Set(value.map((item) => JSON.stringify(item)));
		if (schema.uniqueItems && distinct.size < value.length) fail('contains duplicate item');
		if (schema.items) {
			const items = schema.items;
			value.forEach((item, index) =>
				errors.push(...validateSchema(item, items, `${property}[${index}]`)),
			);
		}
	}
	return errors;
}

/** Evolution's `dataValidate`: 400 with a nested array of messages, e.g. `[["instance requires property \"x\""]]`. */
export function assertEvolutionBody(body: unknown, schema: Schema): JsonObject {
	const errors = validateSchema(body ?? {}, schema);
	if (errors.length > 0) {
		throw evolutionError.schema(
			errors.map(
				(error) =>
					error.schema.description ?? `${error.property} ${error.message}`.replace('instance.', ''),
			),
		);
	}
	return bodyObject(body);
}

/** Evolution's `groupValidate`: 400 with a flat array of `{property, message}`. */
export function assertEvolutionGroupBody(body: unknown, schema: Schema): JsonObject {
	const errors = validateSchema(body ?? {}, schema);
	if (errors.length > 0) {
		throw evolutionError.badRequest(
			...errors.map(({ property, message }) => ({ property, message })),
		);
	}
	return bodyObject(body);
}

// ---- WAHA: class-validator style messages collected per field ----

type Optional = { optional?: boolean };

/** Collects class-validator style messages; `done()` throws the 400 when there are any. */
export class FieldChecks {
	readonly messages: string[] = [];

	constructor(private readonly source: JsonObject) {}

	private value(name: string): unknown {
		return name
			.split('.')
			.reduce<unknown>(
				(current, key) => (isObject(current) ? current[key] : undefined),
				this.source,
			);
	}

	private absent(name: string, options: Optional): boolean {
		const value = this.value(name);
		if (value !== undefined && value !== null) return false;
		if (!options.optional) this.messages.push(`${name} should not be empty`);
		return true;
	}

	string(name: string, options: Optional & { notEmpty?: boolean } = {}): string | undefined {
		if (this.absent(name, options)) return undefined;
		const value = this.value(name);
		if (typeof value !== 'string') {
			this.messages.push(`${name} must be a string`);
			return undefined;
		}
		if (options.notEmpty && value.trim() === '') this.messages.push(`${name} should not be empty`);
		return value;
	}

	boolean(name: string, options: Optional = {}): boolean | undefined {
		if (this.absent(name, options)) return undefined;
		const value = this.value(name);
		if (typeof value !== 'boolean') this.messages.push(`${name} must be a boolean value`);
		return typeof value === 'boolean' ? value : undefined;
	}

	number(name: string, options: Optional & { min?: number } = {}): number | undefined {
		if (this.absent(name, options)) return undefined;
		const value = this.value(name);
		if (typeof value !== 'number' || !Number.isFinite(value)) {
			this.messages.push(`${name} must be a number conforming to the specified constraints`);
			return undefined;
		}
		if (options.min !== undefined && value < options.min) {
			this.messages.push(`${name} must not be less than ${options.min}`);
		}
		return value;
	}

	object(name: string, options: Optional = {}): JsonObject | undefined {
		if (this.absent(name, options)) return undefined;
		const value = this.value(name);
		if (!isObject(value))
			this.messages.push(`nested property ${name} must be either object or array`);
		return isObject(value) ? value : undefined;
	}

	stringArray(name: string, options: Optional & { minItems?: number } = {}): string[] | undefined {
		if (this.absent(name, options)) return undefined;
		const value = this.value(name);
		if (!Array.isArray(value)) {
			this.messages.push(`${name} must be an array`);
			return undefined;
		}
		if (value.some((item) => typeof item !== 'string'))
			this.messages.push(`each value in ${name} must be a string`);
		if (options.minItems !== undefined && value.length < options.minItems) {
			this.messages.push(`${name} must contain at least ${options.minItems} elements`);
		}
		return value.filter((item): item is string => typeof item === 'string');
	}

	oneOf<T extends string>(
		name: string,
		allowed: readonly T[],
		options: Optional = {},
	): T | undefined {
		const value = this.string(name, options);
		if (value === undefined) return undefined;
		if (!allowed.includes(value as T)) {
			this.messages.push(`${name} must be one of the following values: ${allowed.join(', ')}`);
			return undefined;
		}
		return value as T;
	}

	add(message: string): void {
		this.messages.push(message);
	}

	done(): void {
		if (this.messages.length > 0) throw nestError.validation(this.messages);
	}
}
