// /__sim/ control API: no apikey, never recorded in the request log, answers `{error}` on bad input.
import {
	injectDeletion,
	injectInbound,
	setConnectionState,
	setLicence,
	validFaultRule,
} from '../control.cts';
import type { RequestContext, Route } from '../core.cts';
import { SimulatorInputError } from '../errors.cts';
import { SEED } from '../seed.cts';
import { sessionStatus } from '../state.cts';
import type { DeletionInput, InboundMessageInput } from '../types.cts';
import { bodyObject } from '../validation.cts';

function queryText(context: RequestContext, name: string): string | undefined {
	const value = context.query[name];
	return Array.isArray(value) ? value[0] : value;
}

function overview(context: RequestContext) {
	return {
		status: 200,
		body: {
			simulator: 'messaging-gateway',
			url: context.core.baseUrl,
			apiKey: context.core.apiKey,
			routes: controlRoutes.map((route) => `${route.method} ${route.pattern}`),
		},
	};
}

function seed(context: RequestContext) {
	return { status: 200, body: { apiKey: context.core.apiKey, seed: SEED } };
}

function instances(context: RequestContext) {
	const list = [...context.core.state.instances.values()].map((instance) => ({
		name: instance.name,
		state: instance.state,
		sessionStatus: sessionStatus(instance),
		token: instance.token,
		owner: instance.wuid,
		webhook: instance.webhook,
	}));
	return { status: 200, body: list };
}

function inbound(context: RequestContext) {
	return {
		status: 201,
		body: injectInbound(context.core, context.events, context.body as InboundMessageInput),
	};
}

function deletion(context: RequestContext) {
	return {
		status: 200,
		body: { deleted: injectDeletion(context.core, context.events, context.body as DeletionInput) },
	};
}

function state(context: RequestContext) {
	const body = bodyObject(context.body);
	if (typeof body.instance !== 'string')
		throw new SimulatorInputError(400, 'instance must be an instance name');
	setConnectionState(context.core, context.events, body.instance, body.state);
	return { status: 200, body: { instance: body.instance, state: body.state } };
}

/** Evolution 2.4.0: `{active: true}` activates the licence, `{active: false}` deactivates it. */
function licence(context: RequestContext) {
	const body = bodyObject(context.body);
	setLicence(context.core, body.active);
	return { status: 200, body: { active: body.active } };
}

/** `?method=POST&path=/message/` narrows the log (path is a substring of the raw path). */
function requests(context: RequestContext) {
	const method = queryText(context, 'method')?.toUpperCase();
	const path = queryText(context, 'path');
	const list = context.core.requests.filter(
		(request) => (!method || request.method === method) && (!path || request.path.includes(path)),
	);
	return { status: 200, body: list };
}

function clearRequests(context: RequestContext) {
	const cleared = context.core.requests.length;
	context.core.requests.length = 0;
	return { status: 200, body: { cleared } };
}

function deliveries(context: RequestContext) {
	return { status: 200, body: context.core.webhooks.deliveries };
}

function clearDeliveries(context: RequestContext) {
	const cleared = context.core.webhooks.deliveries.length;
	context.core.webhooks.deliveries.length = 0;
	return { status: 200, body: { cleared } };
}

/** Each delivery with its attempts grouped (Simulator.deliveryOutcomes). */
function deliveryOutcomes(context: RequestContext) {
	return { status: 200, body: context.core.webhooks.outcomes() };
}

function deliveryClock(context: RequestContext) {
	return { status: 200, body: context.core.webhooks.deliveryClock() };
}

/** `{scale?, timeoutMs?}` as Simulator.setDeliveryClock takes it; answers the clock now in force. */
function setDeliveryClock(context: RequestContext) {
	context.core.webhooks.setClock(bodyObject(context.body));
	return deliveryClock(context);
}

/** One rule or an array of rules, queued in order. */
function addFaults(context: RequestContext) {
	const rules = Array.isArray(context.body) ? context.body : [context.body];
	context.core.faults.push(...rules.map(validFaultRule));
	return { status: 201, body: { pending: context.core.faults } };
}

function listFaults(context: RequestContext) {
	return { status: 200, body: { pending: context.core.faults } };
}

function clearFaults(context: RequestContext) {
	const cleared = context.core.faults.length;
	context.core.faults.length = 0;
	return { status: 200, body: { cleared } };
}

function reset(context: RequestContext) {
	context.core.reset();
	return { status: 200, body: { reset: true } };
}

export const controlRoutes: Route[] = [
	{ method: 'GET', pattern: '/__sim', family: 'control', handler: overview },
	{ method: 'GET', pattern: '/__sim/seed', family: 'control', handler: seed },
	{ method: 'GET', pattern: '/__sim/instances', family: 'control', handler: instances },
	{ method: 'POST', pattern: '/__sim/inbound', family: 'control', handler: inbound },
	{ method: 'POST', pattern: '/__sim/deletion', family: 'control', handler: deletion },
	{ method: 'POST', pattern: '/__sim/state', family: 'control', handler: state },
	{ method: 'POST', pattern: '/__sim/license', family: 'control', handler: licence },
	{ method: 'GET', pattern: '/__sim/requests', family: 'control', handler: requests },
	{ method: 'DELETE', pattern: '/__sim/requests', family: 'control', handler: clearRequests },
	{ method: 'GET', pattern: '/__sim/deliveries', family: 'control', handler: deliveries },
	{ method: 'DELETE', pattern: '/__sim/deliveries', family: 'control', handler: clearDeliveries },
	{
		method: 'GET',
		pattern: '/__sim/delivery-outcomes',
		family: 'control',
		handler: deliveryOutcomes,
	},
	{ method: 'GET', pattern: '/__sim/delivery-clock', family: 'control', handler: deliveryClock },
	{
		method: 'POST',
		pattern: '/__sim/delivery-clock',
		family: 'control',
		handler: setDeliveryClock,
	},
	{ method: 'POST', pattern: '/__sim/faults', family: 'control', handler: addFaults },
	{ method: 'GET', pattern: '/__sim/faults', family: 'control', handler: listFaults },
	{ method: 'DELETE', pattern: '/__sim/faults', family: 'control', handler: clearFaults },
	{ method: 'POST', pattern: '/__sim/reset', family: 'control', handler: reset },
];
