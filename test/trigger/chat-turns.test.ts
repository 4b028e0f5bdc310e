/**
 * Each chat's order among messages n8n takes at the same moment (chat-turns.ts): a message is
 * handed to n8n once the older messages of its chat taken meanwhile have their executions stored.
 * The line itself as a table, then on each gateway the credential offers: an older message whose
 * delivery is slow to become an item (its credential read failed once) still starts first.
 */

import { CHAT_TURN_WAIT_MS, joinChatLine } from '../../nodes/MessagingGatewayTrigger/chat-turns';
import type { ChatTurn } from '../../nodes/MessagingGatewayTrigger/chat-turns';
import { SEED } from '../simulator/index.cts';
import { useTriggerTestbed } from './trigger-testbed.cts';

/** n8n's response to a delivery: it answers (finish) once the execution is stored. */
class Response {
	writableEnded = false;
	private readonly listeners: Array<{ event: string; listener: () => void }> = [];
	once(event: 'finish' | 'close', listener: () => void): void {
		this.listeners.push({ event, listener });
	}
	emit(event: 'finish' | 'close'): void {
		for (const entry of this.listeners.filter((each) => each.event === event)) entry.listener();
	}
}

/** Whether `turn` is ready once pending callbacks have run (timers are jest's: none fires). */
async function isReady(turn: ChatTurn, holdsOthers = false): Promise<boolean> {
	let ready = false;
	void turn.ready(holdsOthers).then(() => (ready = true));
	await jest.advanceTimersByTimeAsync(0);
	return ready;
}

let lineNumber = 0;

describe('a chat’s line', () => {
	beforeEach(() => {
		jest.useFakeTimers();
	});
	afterEach(() => {
		jest.clearAllTimers();
		jest.useRealTimers();
	});

	it.each([
		{
			case: 'an older message of the chat being taken: the newer waits',
			joined: [
				{ chat: 'a', time: 100 },
				{ chat: 'a', time: 101 },
			],
			readyAtOnce: [true, false],
		},
		{
			case: 'the older one arrived second: it goes first, the newer waits',
			joined: [
				{ chat: 'a', time: 101 },
				{ chat: 'a', time: 100 },
			],
			readyAtOnce: [false, true],
		},
		{
			case: 'the same second: in arrival order',
			joined: [
				{ chat: 'a', time: 100 },
				{ chat: 'a', time: 100 },
			],
			readyAtOnce: [true, false],
		},
		{
			case: 'another chat: nothing waits',
			joined: [
				{ chat: 'a', time: 101 },
				{ chat: 'b', time: 100 },
			],
			readyAtOnce: [true, true],
		},
		{
			case: 'no chat or no time (not a message): nothing waits, nothing waits for it',
			joined: [
				{ chat: undefined, time: 100 },
				{ chat: 'a', time: undefined },
				{ chat: 'a', time: 101 },
			],
			readyAtOnce: [true, true, true],
		},
		{
			case: 'three of one chat: each waits for every older one',
			joined: [
				{ chat: 'a', time: 102 },
				{ chat: 'a', time: 100 },
				{ chat: 'a', time: 101 },
			],
			readyAtOnce: [false, true, false],
		},
	])('$case', async ({ joined, readyAtOnce }) => {
		const trigger = `line-${++lineNumber}`;
		const turns = joined.map(({ chat, time }) => joinChatLine(trigger, chat, time));

		expect(await Promise.all(turns.map(async (turn) => await isReady(turn)))).toEqual(readyAtOnce);

		// Handed on oldest first, each is ready once those before it left.
		const order = joined
			.map((entry, index) => ({ ...entry, index }))
			.sort((left, right) => (left.time ?? 0) - (right.time ?? 0) || left.index - right.index);
		for (const { index } of order) {
			expect(await isReady(turns[index])).toBe(true);
			turns[index].leave();
		}
	});

	it.each([
		{ n8n: 'answers (finish)', event: 'finish', newerReady: true },
		{ n8n: 'closes the connection', event: 'close', newerReady: true },
		{ n8n: 'has not answered yet', event: undefined, newerReady: false },
	] as const)(
		'the older message left with its response, n8n $n8n: the newer is ready: $newerReady',
		async ({ event, newerReady }) => {
			const trigger = `response-${String(event)}`;
			const older = joinChatLine(trigger, 'a', 100);
			const newer = joinChatLine(trigger, 'a', 101);
			const response = new Response();

			older.leave(response);
			if (event) response.emit(event);

			expect(await isReady(newer)).toBe(newerReady);
			newer.leave();
		},
	);

	it.each([
		{ newer: 'carries the catch-up', holdsOthers: true, ready: true },
		{ newer: 'does not carry it', holdsOthers: false, ready: false },
	])(
		'an older message waits for the catch-up under way, and the newer $newer: it is ready: $ready',
		async ({ holdsOthers, ready }) => {
			const trigger = `catch-up-${String(holdsOthers)}`;
			const older = joinChatLine(trigger, 'a', 100);
			let catchUpDone = () => {};
			void older.waitForCatchUp(new Promise<void>((resolve) => (catchUpDone = resolve)));
			const newer = joinChatLine(trigger, 'a', 101);

			// The older one waits for the carrier's catch-up: the carrier cannot wait for it.
			expect(await isReady(newer, holdsOthers)).toBe(ready);

			catchUpDone();
			older.leave();
			expect(await isReady(newer, holdsOthers)).toBe(true);
			newer.leave();
		},
	);

	it('an answer already written when it leaves: the newer is ready at once', async () => {
		const older = joinChatLine('written', 'a', 100);
		const newer = joinChatLine('written', 'a', 101);
		const response = new Response();
		response.writableEnded = true;

		older.leave(response);

		expect(await isReady(newer)).toBe(true);
		newer.leave();
	});

	it(`an older message never handed on holds the newer ${CHAT_TURN_WAIT_MS} ms, no longer`, async () => {
		joinChatLine('stuck', 'a', 100);
		const newer = joinChatLine('stuck', 'a', 101);
		let ready = false;
		void newer.ready().then(() => (ready = true));

		await jest.advanceTimersByTimeAsync(CHAT_TURN_WAIT_MS - 1);
		expect(ready).toBe(false);
		await jest.advanceTimersByTimeAsync(1);
		expect(ready).toBe(true);
	});
});

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const NOW = () => Math.floor(Date.now() / 1000);

describe.each([{ gateway: 'spec' }, { gateway: 'evolution-v2' }, { gateway: 'waha' }] as const)(
	'one chat’s messages taken at the same moment, on $gateway',
	({ gateway }) => {
		const testbed = useTriggerTestbed(SESSION, gateway);

		it('the older one, slower to become an item, still starts first', async () => {
			const harness = await testbed.start({}, undefined, 2);
			await harness.activate();
			// The older message's credential read fails once: it is tried again 100 ms later.
			harness.failNextCredentialReads(1);
			const older = testbed.simulator.injectInboundMessage({
				instance: SESSION,
				from: ALICE.number,
				text: 'Hello, I ordered on Monday',
				timestamp: NOW() - 5,
			});
			await harness.untilLogged('turning a delivery into an item failed, trying again');
			await testbed.simulator.injectInboundMessage({
				instance: SESSION,
				from: ALICE.number,
				text: 'Where is it?',
				timestamp: NOW(),
			});
			await older;
			await harness.waitForDeliveries(2);

			expect(harness.deliveries.map((delivery) => delivery.status)).toEqual([200, 200]);
			expect(harness.executions().map((items) => items.map((item) => item.json.text))).toEqual([
				['Hello, I ordered on Monday'],
				['Where is it?'],
			]);
		});
	},
);
