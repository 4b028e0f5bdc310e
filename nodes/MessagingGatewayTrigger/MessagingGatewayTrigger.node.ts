import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, sleep } from 'n8n-workflow';

import { searchSessions, SESSION_SUBTITLE } from '../shared/session';
import { EVOLUTION_V2_WEBHOOKS } from '../shared/gateways/evolution-v2/webhook';
import { WAHA_WEBHOOKS } from './gateways/waha/webhook';
import type { GatewayName } from '../shared/transport';
import { selectedGateway } from '../shared/transport';
import { carryDueCatchUp, caughtUpItems, inMessageOrder, markFirstDelivery } from './catch-up';
import { CATCH_UP_WAIT_MS, catchUpUnderWay } from './catch-up-hold';
import { checkedDelivery, messageOf } from './checked-delivery';
import { credentialApiKey } from './credential-key';
import type { DeliveryFilters, DeliveryOutput } from './webhook/deliveries';
import {
	deliveryDigest,
	DELIVERIES,
	parseRedeliverMinutes,
	recordWithout,
	REDELIVER_MINUTES,
	rememberSeconds,
} from './delivery-memory';
import type { TriggerStaticData, WebhookRegistrar } from './webhook/registration';
import { checkedNumber, LOG_PREFIX, replacingRegistrar } from './webhook/registration';
import { MESSAGING_GATEWAY_WEBHOOKS } from './webhook/remote-webhook';
import { firstRunsOnly, tagged } from './processed-messages';
import { noteTaken, triggerKey } from './unstarted-messages';
import { joinChatLine } from './chat-turns';
import type { Activation, WantedOnEach } from './watched-sessions';
import {
	allRegistered,
	authenticState,
	getSessions,
	noteActivations,
	readSessionScope,
	registerSessions,
	registeredOnWaha,
	unregisterSessions,
	watchedSessions,
} from './watched-sessions';
import { Redactor } from '../shared/secrets';
import { triggerFields } from './fields';
import {
	CATCH_UP_HOURS,
	catchUpHours,
	collection,
	fromVersion3,
	parseCatchUpHours,
	readFilters,
	readOutput,
} from './settings';

/** Tries at turning one delivery into an item, and the pause before the next (times the try). */
const DELIVERY_ATTEMPTS = 3;
const DELIVERY_RETRY_DELAY_MS = 100;

/** The activation's settings (what is registered on each watched session, and which sessions) and means. */
async function activationOf(this: IHookFunctions): Promise<Activation> {
	// Every parameter is checked here, before any request, so a typo fails activation loudly
	// instead of silently filtering every delivery.
	const filters = readFilters.call(this);
	const options = collection.call(this, 'options');
	const scope = readSessionScope.call(this);
	const wanted: WantedOnEach = {
		webhookUrl: this.getNodeWebhookUrl('default') as string,
		events: filters.events,
		base64: options.includeMedia === true,
		replaceUnseen: options.replaceUnseenWebhook !== false,
		ignoreOwnMessages: filters.ignoreOwnMessages,
		redeliverMinutes: checkedNumber.call(
			this,
			options.redeliverMinutes,
			parseRedeliverMinutes,
			`Redeliver For (Minutes) must be a whole number of minutes from 1 to ${REDELIVER_MINUTES.max}`,
		),
		catchUpHours: checkedNumber.call(
			this,
			options.catchUpHours,
			parseCatchUpHours,
			`Catch Up Missed Messages (Hours) must be a whole number of hours from 0 to ${CATCH_UP_HOURS.max}`,
		),
	};
	// All Sessions asks the gateway: after every check that needs none.
	return {
		wanted,
		scope,
		sessions: await watchedSessions.call(this, scope),
		registrar: await webhookRegistrarOf.call(this),
		staticData: this.getWorkflowStaticData('node') as TriggerStaticData,
	};
}

/**
 * An answer the trigger writes itself, for a delivery that starts no execution (refused,
 * ignored, or failed). A delivery that starts one is answered by n8n (see `webhook`).
 */
function answer(this: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	this.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/**
 * How each gateway keeps the trigger's webhook: one per session, replaced and put back, or (WAHA)
 * one among several, added and removed.
 */
const WEBHOOK_REGISTRARS: Record<GatewayName, WebhookRegistrar> = {
	messagingGatewayApi: replacingRegistrar(MESSAGING_GATEWAY_WEBHOOKS),
	evolutionV2: replacingRegistrar(EVOLUTION_V2_WEBHOOKS),
	waha: WAHA_WEBHOOKS,
};

/** The credential's gateway's registrar (read in the hooks, never per delivery). */
async function webhookRegistrarOf(this: IHookFunctions): Promise<WebhookRegistrar> {
	return WEBHOOK_REGISTRARS[await selectedGateway.call(this)];
}

export class MessagingGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Messaging Gateway Trigger',
		name: 'messagingGatewayTrigger',
		icon: {
			light: 'file:../../icons/messaging-gateway.svg',
			dark: 'file:../../icons/messaging-gateway.dark.svg',
		},
		group: ['trigger'],
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: `={{ $parameter["sessionScope"] === "all" ? "all sessions" : $parameter["sessionScope"] === "several" ? [].concat($parameter["sessions"]).join(", ") : ${SESSION_SUBTITLE} }}`,
		description:
			'Starts the workflow on WhatsApp messages and other events of an Evolution API, WAHA or other messaging gateway session',
		defaults: { name: 'Messaging Gateway Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'messagingGatewayApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				// n8n answers after storing the execution (2.x; 1.x as its own Webhook node), with
				// the item's webhookResponse as the body: responseData '' names no other body.
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		],
		properties: triggerFields,
	};

	methods = { listSearch: { searchSessions }, loadOptions: { getSessions } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				const activation = await activationOf.call(this);
				const registered = await allRegistered.call(this, activation);
				if (registered) noteActivations(this.getActivationMode(), activation.staticData);
				this.logger.debug(
					`${LOG_PREFIX} activation (${this.getActivationMode()}): the webhook is ${registered ? 'registered' : 'not registered'} on ${activation.sessions.length} session(s)`,
				);
				return registered;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const activation = await activationOf.call(this);
				await registerSessions.call(this, activation);
				noteActivations(this.getActivationMode(), activation.staticData);
				this.logger.debug(
					`${LOG_PREFIX} activation (${this.getActivationMode()}): registered on ${activation.sessions.length} session(s)`,
				);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				const staticData = this.getWorkflowStaticData('node') as TriggerStaticData;
				const registrar = await webhookRegistrarOf.call(this);
				await unregisterSessions.call(this, registrar, staticData);
				return true;
			},
		},
	};

	/**
	 * n8n runs this as the first step of each execution webhook() started: the messages that ran
	 * before (a redelivery after a restart, or to another n8n process) are left out there.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await firstRunsOnly.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const staticWhole = this.getWorkflowStaticData('node') as TriggerStaticData;
		// First of all, before anything reads the body: only the gateway knows the token or key.
		const found = authenticState.call(this, staticWhole);
		const staticData = found instanceof Promise ? await found : found;
		const registration = staticData?.registration;
		if (!staticData || !registration) {
			return answer.call(this, 401, {
				message: registeredOnWaha(staticWhole)
					? 'Unknown or missing signature'
					: 'Unknown or missing token',
			});
		}
		const expectedToken = registration.token;

		const delivery = checkedDelivery.call(this, registration, this.getBodyData());
		if ('problem' in delivery) {
			return answer.call(this, 400, { received: false, error: delivery.problem });
		}

		let filters: DeliveryFilters;
		let options: IDataObject;
		let output: DeliveryOutput;
		try {
			filters = { ...readFilters.call(this), session: registration.session };
			options = collection.call(this, 'options');
			output = readOutput(
				options,
				fromVersion3(this, 'simplify', options),
				// Read only where it matters: most triggers take no QR code events.
				filters.events.includes('QRCODE_UPDATED')
					? fromVersion3(this, 'qrCodeAsBinary', options)
					: undefined,
			);
		} catch (error) {
			// Settings that stopped being usable (an expression) ignore deliveries; they never crash.
			const reason = messageOf(error);
			this.logger.warn(`${LOG_PREFIX} a delivery was ignored: ${reason}`);
			return answer.call(this, 200, { received: true, ignored: 'unusable settings', reason });
		}
		const ignored = delivery.reasonToIgnore(filters);
		if (ignored) return answer.call(this, 200, { received: true, ignored });

		// A redelivery of an event that started an execution starts nothing.
		// The registration's token: this trigger's own, and free to read (the node costs a copy).
		const trigger = expectedToken;
		markFirstDelivery(trigger);
		let carrying = carryDueCatchUp(trigger, this.getResponseObject());
		const digest = deliveryDigest(delivery.identity(filters));
		const time = delivery.messageTime();
		const turn = joinChatLine(trigger, delivery.messageChat(), time);
		try {
			// After a gap, the missed messages go first: one found among them is not run again. A
			// catch-up that could not be read is still due when it ends: a delivery that waited for
			// it carries it next (at once, before another waiting one can run ahead of it).
			const waitedFrom = Date.now();
			for (
				let catchingUp = carrying ? undefined : catchUpUnderWay(trigger);
				catchingUp && Date.now() - waitedFrom < CATCH_UP_WAIT_MS;
				catchingUp = carrying ? undefined : catchUpUnderWay(trigger)
			) {
				await turn.waitForCatchUp(catchingUp);
				carrying = carryDueCatchUp(trigger, this.getResponseObject());
				this.logger.debug(
					`${LOG_PREFIX} a delivery waited ${Date.now() - waitedFrom} ms for the catch-up under way`,
				);
			}
			const now = Math.floor(Date.now() / 1000);
			const verdict = DELIVERIES.verdict(trigger, staticData.delivered, digest, now);
			if (verdict === 'duplicate') {
				return answer.call(this, 200, { received: true, ignored: 'delivered before' });
			}
			if (verdict === 'in progress') {
				return answer.call(this, 409, {
					received: false,
					error: 'This event is being delivered already: try again later',
				});
			}
			staticData.delivered = DELIVERIES.accept(
				trigger,
				staticData.delivered,
				digest,
				now + rememberSeconds(options),
				now,
				this.getResponseObject(),
			);
			const secrets = [expectedToken];
			// A failure that may pass (n8n's regular expression watchdog fires on a starved process) is
			// tried again here: Evolution API 1.x never posts an event twice.
			for (let attempt = 1; ; attempt++) {
				try {
					const keyRead = credentialApiKey.call(this);
					const apiKey = keyRead instanceof Promise ? await keyRead : keyRead;
					if (apiKey !== undefined && !secrets.includes(apiKey)) secrets.push(apiKey);
					// Awaited only when there is a file to store: most items need nothing asynchronous.
					const built = delivery.toItem.call(this, output, filters, secrets);
					const item = built instanceof Promise ? await built : built;
					const { items: caughtUp, tryAgainLater } = await caughtUpItems.call(this, {
						registration,
						staticData,
						filters,
						output,
						secrets,
						hours: catchUpHours(options),
						retention: rememberSeconds(options),
						now,
						carrying,
					});
					if (caughtUp.length === 0) carrying?.();
					if (tryAgainLater) {
						DELIVERIES.forget(trigger, digest);
						staticData.delivered = recordWithout(staticData.delivered, digest);
						return answer.call(this, 503, {
							received: false,
							error:
								'The trigger is catching up on messages missed while n8n was away: try again later',
						});
					}
					// Messages only are recorded as run (see processed-messages.ts).
					if (time !== undefined) {
						tagged(item, { digest });
						noteTaken(triggerKey.call(this), registration.session, digest, time, now);
					}
					// n8n answers (responseMode onReceived) once it has stored the execution, and answers
					// 500 when it could not: the gateway hears "received" only for what n8n holds.
					// The older messages of its chat that n8n is taking meanwhile go first (chat-turns.ts);
					// a delivery with caught-up items holds the others: those waiting for it come after.
					await turn.ready(caughtUp.length > 0);
					turn.leave(this.getResponseObject());
					return {
						workflowData: [inMessageOrder(caughtUp, item, time)],
						webhookResponse: { received: true },
					};
				} catch (error) {
					const reason = new Redactor(secrets).text(messageOf(error));
					if (attempt < DELIVERY_ATTEMPTS) {
						this.logger.warn(
							`${LOG_PREFIX} turning a delivery into an item failed, trying again: ${reason}`,
						);
						await sleep(DELIVERY_RETRY_DELAY_MS * attempt);
						continue;
					}
					this.logger.error(`${LOG_PREFIX} a delivery could not be turned into an item: ${reason}`);
					// Not run: the gateway's next try must run it.
					DELIVERIES.forget(trigger, digest);
					staticData.delivered = recordWithout(staticData.delivered, digest);
					return answer.call(this, 500, {
						received: false,
						error: 'The trigger could not turn this delivery into an item; see the n8n log',
					});
				}
			}
		} finally {
			turn.leave();
		}
	}
}
