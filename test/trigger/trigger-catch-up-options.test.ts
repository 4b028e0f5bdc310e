/**
 * The trigger's catch-up options apart from a gap itself (trigger-catch-up.test.ts has those):
 * the live item among the caught-up ones, one parser per option, and on WAHA, activation saying
 * when the session keeps no messages to catch up on (NOWEB without its store).
 */
import type { WorkflowActivateMode } from 'n8n-workflow';

import { inMessageOrder } from '../../nodes/MessagingGatewayTrigger/catch-up';
import { parseCatchUpHours } from '../../nodes/MessagingGatewayTrigger/settings';
import { parseRedeliverMinutes } from '../../nodes/MessagingGatewayTrigger/delivery-memory';
import { LOG_PREFIX } from '../../nodes/MessagingGatewayTrigger/webhook/registration';
import { SEED, startSimulator } from '../simulator/index.cts';
import type { WahaEngine } from '../simulator/index.cts';
import { wahaClient } from '../simulator/waha-testing.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';
import { freshTrigger } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;

describe('inMessageOrder: the live item among the caught-up ones', () => {
	const item = (text: string) => ({ json: { text } });
	const caughtUp = [
		{ item: item('10'), time: 10 },
		{ item: item('20'), time: 20 },
		{ item: item('20 too'), time: 20 },
		{ item: item('30'), time: 30 },
	];

	it.each([
		{ liveTime: 5, order: ['live', '10', '20', '20 too', '30'] },
		{ liveTime: 15, order: ['10', 'live', '20', '20 too', '30'] },
		{ liveTime: 20, order: ['10', '20', '20 too', 'live', '30'] },
		{ liveTime: 40, order: ['10', '20', '20 too', '30', 'live'] },
		{ liveTime: undefined, order: ['10', '20', '20 too', '30', 'live'] },
	])('a live message of second $liveTime: $order', ({ liveTime, order }) => {
		const items = inMessageOrder(caughtUp, item('live'), liveTime);

		expect(items.map(({ json }) => json.text)).toEqual(order);
	});

	it('no caught-up items: the live one alone', () => {
		expect(inMessageOrder([], item('live'), 20)).toEqual([item('live')]);
	});
});

describe('Catch Up Missed Messages (Hours) and Redeliver For (Minutes): one parser each', () => {
	const PARSERS = { hours: parseCatchUpHours, minutes: parseRedeliverMinutes };

	it.each<[keyof typeof PARSERS, unknown, number | undefined]>([
		['hours', undefined, 24],
		['hours', 0, 0],
		['hours', '48', 48],
		['hours', ' 720 ', 720],
		['hours', 721, undefined],
		['hours', 1.5, undefined],
		['hours', '-1', undefined],
		['hours', '1e2', undefined],
		['hours', '', undefined],
		['minutes', undefined, 15],
		['minutes', 1, 1],
		['minutes', '30', 30],
		['minutes', 0, undefined],
		['minutes', 1441, undefined],
		['minutes', true, undefined],
	])('%s: %j reads as %j (undefined: unusable)', (option, raw, expected) => {
		expect(PARSERS[option](raw)).toBe(expected);
	});
});

describe('WAHA: activation says when the session keeps no messages to catch up on', () => {
	const KEEPS_NONE = `Session "${SESSION}" runs WAHA's NOWEB engine without its store, and NOWEB keeps no messages without it: messages that arrive while n8n is down longer than WAHA tries again cannot be caught up on`;
	const WAYS_OUT =
		"Enable the session's store (config.noweb.store.enabled and config.noweb.store.fullSync), or set Catch Up Missed Messages (Hours) to 0.";
	const WARNING = `warn: ${LOG_PREFIX} ${KEEPS_NONE}. ${WAYS_OUT}`;
	const running: Array<{ stop(): Promise<void> }> = [];
	afterEach(async () => {
		await Promise.all(running.splice(0).map((each) => each.stop()));
	});

	async function onWaha(
		engine: WahaEngine,
		store: boolean,
		activationMode: WorkflowActivateMode,
		catchUpHours = 24,
	) {
		const simulator = await startSimulator({
			gateway: 'waha',
			wahaEngine: engine,
			wahaStore: store,
		});
		running.push(simulator);
		const trigger = await startTriggerHarness({
			gateway: simulator,
			parameters: { session: SESSION, events: ['MESSAGES_UPSERT'], options: { catchUpHours } },
			mode: activationMode === 'manual' ? 'manual' : 'trigger',
			activationMode,
			credentialGateway: 'waha',
		});
		running.push(trigger);
		return { simulator, trigger };
	}

	/** What an activation hook gave: its answer, or its refusal (message and description). */
	async function outcomeOf(hook: Promise<unknown>) {
		try {
			return await hook;
		} catch (error) {
			const { message, description } = error as { message: string; description?: string };
			return { message, description };
		}
	}

	const REFUSED = { message: KEEPS_NONE, description: WAYS_OUT };
	/** What each verdict makes of an activation: its outcome, and the lines logged about NOWEB. */
	const VERDICTS = {
		refused: { outcome: REFUSED, logged: [] },
		warned: { outcome: 'registered', logged: [WARNING] },
		silent: { outcome: 'registered', logged: [] },
	};

	it.each<{
		engine: WahaEngine;
		store: boolean;
		mode: WorkflowActivateMode;
		hours: number;
		verdict: keyof typeof VERDICTS;
	}>([
		{ engine: 'NOWEB', store: false, mode: 'activate', hours: 24, verdict: 'refused' },
		{ engine: 'NOWEB', store: false, mode: 'manual', hours: 24, verdict: 'refused' },
		{ engine: 'NOWEB', store: false, mode: 'init', hours: 24, verdict: 'warned' },
		{ engine: 'NOWEB', store: false, mode: 'leadershipChange', hours: 24, verdict: 'warned' },
		{ engine: 'NOWEB', store: false, mode: 'update', hours: 24, verdict: 'warned' },
		{ engine: 'NOWEB', store: true, mode: 'activate', hours: 24, verdict: 'silent' },
		{ engine: 'WEBJS', store: false, mode: 'activate', hours: 24, verdict: 'silent' },
		{ engine: 'GOWS', store: false, mode: 'activate', hours: 24, verdict: 'silent' },
		{ engine: 'NOWEB', store: false, mode: 'activate', hours: 0, verdict: 'silent' },
	])(
		'$engine, store $store, activation mode $mode, Catch Up Missed Messages (Hours) $hours: $verdict',
		async ({ engine, store, mode, hours, verdict }) => {
			const { outcome, logged } = VERDICTS[verdict];
			const { simulator, trigger } = await onWaha(engine, store, mode, hours);

			expect(await outcomeOf(trigger.activate().then(() => 'registered'))).toEqual(outcome);

			expect(trigger.logLines().filter((line) => line.includes('NOWEB'))).toEqual(logged);
			expect(simulator.getWebhooks(SESSION)).toHaveLength(verdict === 'refused' ? 0 : 1);
			// The check asks nothing of its own: it reads the session as registration reads it.
			expect(simulator.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
				`GET /api/sessions/${SESSION}`,
				...(verdict === 'refused' ? [] : [`PUT /api/sessions/${SESSION}`]),
			]);
		},
	);

	it.each<{ mode: WorkflowActivateMode; verdict: 'refused' | 'warned' }>([
		{ mode: 'init', verdict: 'warned' },
		{ mode: 'activate', verdict: 'refused' },
	])(
		'registered, the store turned off since: checkExists as $mode reads it again: $verdict',
		async ({ mode, verdict }) => {
			const { outcome, logged } = VERDICTS[verdict];
			const { simulator, trigger } = await onWaha('NOWEB', true, 'activate');
			await trigger.activate();
			const api = wahaClient(simulator);
			const { config } = (await api.get(`/api/sessions/${SESSION}`)).data;
			const store = { enabled: false, fullSync: false };
			const storeOff = { ...config, noweb: { markOnline: true, store } };
			await api.put(`/api/sessions/${SESSION}`, { config: storeOff });
			simulator.clearLogs();
			trigger.restart(await freshTrigger(), mode);

			const registered = trigger.checkExists().then((exists) => exists && 'registered');
			expect(await outcomeOf(registered)).toEqual(outcome);

			expect(trigger.logLines().filter((line) => line.includes('NOWEB'))).toEqual(logged);
			expect(simulator.getWebhooks(SESSION)).toHaveLength(1);
			expect(simulator.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
				`GET /api/sessions/${SESSION}`,
			]);
		},
	);
});
