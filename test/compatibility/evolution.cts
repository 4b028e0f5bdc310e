/**
 * Judges a request the way Evolution API does before its controllers run: the route must exist in its
 * routers (method and path), then the router's validator builds the object to validate and runs
 * `validate()` of the `jsonschema` package (the library and call Evolution uses) against the route's
 * schema. Routes, validators and schema constraints come from a restatement in schemas/: 1.8.2 here
 * (`checkEvolution`), 2.3.6 in evolution-v2.cts; both versions validate with the same RouterBroker code.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { validate } from 'jsonschema';
import type { Schema } from 'jsonschema';

import { matchTemplate, pathSegments } from './verdicts.cts';
import type { SentRequest, Verdict } from './verdicts.cts';

interface EvolutionRoute {
	method: string;
	path: string;
	/** The RouterBroker method the route calls. */
	validator: string;
	/** A key of `schemas`, or null when the route validates nothing. */
	schema: string | null;
}

export interface EvolutionReference {
	/** The file in schemas/ it was read from. */
	file: string;
	source: { tag: string; commit: string };
	/** The first path segments routes stand under (where index.router.ts mounts a router). */
	mounts: string[];
	routes: EvolutionRoute[];
	schemas: Record<string, Schema>;
}

export function loadEvolution(file: string): EvolutionReference {
	return { ...JSON.parse(fs.readFileSync(path.join(__dirname, 'schemas', file), 'utf8')), file };
}

export const EVOLUTION = loadEvolution('evolution-1.8.2.json');

function asObject(value: unknown): Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: {};
}

function firstValue(value: string | string[] | undefined): string | undefined {
	return Array.isArray(value) ? value[0] : value;
}

/**
 * The object a RouterBroker validator hands to `validate()`, or the 400 it answers first
 * (abstract.router.ts). Express gives an empty object as body when none was sent.
 */
function validatedObject(
	route: EvolutionRoute,
	request: SentRequest,
): { object: Record<string, unknown> } | { refused: string[] } {
	const body = asObject(request.body);
	switch (route.validator) {
		case 'none':
		case 'dataValidate':
		case 'groupNoValidate':
			// dataValidate merges the query into the instance, never into what it validates.
			return { object: { ...body } };
		case 'groupValidate': {
			let groupJid = (body.groupJid as string | undefined) || firstValue(request.query.groupJid);
			// Its BadRequestException carries an example as a second message.
			if (!groupJid)
				return {
					refused: ['The group id needs to be informed in the query', 'ex: "groupJid=120362@g.us"'],
				};
			if (!groupJid.endsWith('@g.us')) groupJid += '@g.us';
			return { object: { ...body, groupJid } };
		}
		case 'getParticipantsValidate':
			// The whole query is merged into the body; without getParticipants the route answers 400 first.
			if (!firstValue(request.query.getParticipants))
				return { refused: ['The getParticipants needs to be informed in the query'] };
			return { object: { ...body, ...request.query } };
		case 'inviteCodeValidate':
			if (!firstValue(request.query.inviteCode))
				return {
					refused: [
						'The group invite code id needs to be informed in the query',
						'ex: "inviteCode=F1EX5QZxO181L3TMVP31gY" (Obtained from group join link)',
					],
				};
			return { object: { ...body, ...request.query } };
		default:
			throw new Error(`Evolution's ${route.validator} is not modelled (${route.path})`);
	}
}

/** Evolution's wording: the failing schema node's description, else jsonschema's stack. */
function evolutionMessages(object: Record<string, unknown>, schema: Schema): string[] {
	return validate(object, schema).errors.map((error) =>
		typeof error.schema === 'object' && error.schema.description
			? error.schema.description
			: error.stack.replace('instance.', ''),
	);
}

/** The verdict of the Evolution version `reference` restates. */
export function judgeEvolution(reference: EvolutionReference, request: SentRequest): Verdict {
	const [mount] = pathSegments(request.path);
	if (!reference.mounts.includes(`/${mount}`))
		return { outcome: 'absent', reason: 'no such endpoint' };
	const sameMethod = reference.routes.filter((route) => route.method === request.method);
	const matched = matchTemplate(
		request.path,
		sameMethod.map((route) => route.path),
	);
	if (!matched) {
		const other = matchTemplate(
			request.path,
			reference.routes.map((route) => route.path),
		);
		const methods = reference.routes
			.filter((route) => route.path === other?.template)
			.map((route) => route.method);
		return {
			outcome: 'absent',
			reason: other ? `no ${request.method} route, only ${methods.join(', ')}` : 'no such endpoint',
		};
	}
	const route = sameMethod.find((candidate) => candidate.path === matched.template)!;
	const endpoint = `${route.method} ${route.path}`;
	const prepared = validatedObject(route, request);
	if ('refused' in prepared) return { outcome: 'rejected', endpoint, reasons: prepared.refused };
	if (route.schema === null) return { outcome: 'accepted', endpoint };
	const schema = reference.schemas[route.schema];
	if (!schema) throw new Error(`${route.schema} (${endpoint}) is not in ${reference.file}`);
	const reasons = evolutionMessages(prepared.object, schema);
	return reasons.length === 0
		? { outcome: 'accepted', endpoint }
		: { outcome: 'rejected', endpoint, reasons };
}

export function checkEvolution(request: SentRequest): Verdict {
	return judgeEvolution(EVOLUTION, request);
}
