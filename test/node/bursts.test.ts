/**
 * How a chat's messages are cut into turns (helpers/bursts.ts): by pauses of the silence time, by
 * the maximum count and span, and the same cut whichever message's execution decides.
 */
import { cutIntoBursts, decideBurst } from '../../nodes/MessagingGateway/helpers/bursts';
import type { BurstRule } from '../../nodes/MessagingGateway/helpers/bursts';
import type { BurstMessage } from '../../nodes/shared/gateways';

const RULE: BurstRule = { silenceSeconds: 3, maxMessages: 4, maxSpanSeconds: 10 };

/** Messages stamped at these seconds, named m0, m1… */
function messages(seconds: number[]): BurstMessage[] {
	return seconds.map((timestamp, index) => ({
		messageId: `false_5511999999999@c.us_m${index}`,
		shortId: `m${index}`,
		chatId: '5511999999999@c.us',
		fromMe: false,
		typedByPerson: false,
		timestamp,
		sender: '5511999999999@c.us',
		pushName: null,
		text: `text ${index}`,
		messageType: 'conversation',
		hasMedia: false,
		mimetype: null,
		raw: {},
	}));
}

const names = (bursts: BurstMessage[][]) => bursts.map((burst) => burst.map((m) => m.shortId));

describe('cutting a chat into turns', () => {
	it.each([
		['one message', [0], [['m0']]],
		['gaps under the silence time stay together', [0, 2, 4, 6], [['m0', 'm1', 'm2', 'm3']]],
		[
			'a gap of the silence time starts a new turn',
			[0, 2, 5, 6],
			[
				['m0', 'm1'],
				['m2', 'm3'],
			],
		],
		['the same second keeps the given order', [0, 0, 0], [['m0', 'm1', 'm2']]],
		[
			'Maximum Messages cuts after 4',
			[0, 1, 2, 3, 4, 5],
			[
				['m0', 'm1', 'm2', 'm3'],
				['m4', 'm5'],
			],
		],
		[
			'the maximum span cuts a turn that keeps going',
			[0, 2, 4, 6, 8, 10, 12],
			[
				['m0', 'm1', 'm2', 'm3'],
				['m4', 'm5', 'm6'],
			],
		],
		[
			"the span counts from the turn's first message",
			[0, 2, 4, 12, 14],
			[
				['m0', 'm1', 'm2'],
				['m3', 'm4'],
			],
		],
	])('%s', (_case, seconds, expected) => {
		expect(names(cutIntoBursts(messages(seconds), RULE))).toEqual(expected);
	});
});

describe('which execution goes on', () => {
	const chat = messages([0, 1, 2, 10, 11, 30, 31, 32, 33, 34, 35]);
	const turns = names(cutIntoBursts(chat, RULE));

	it('exactly one per turn, its last message, with the whole turn; every other one ends quietly', () => {
		const decided = chat.map((message) => decideBurst(chat, message.shortId, RULE, true));
		const wentOn = decided.flatMap((decision) =>
			decision?.goOn ? [decision.burst.map((m) => m.shortId)] : [],
		);
		expect(wentOn).toEqual(turns);
		expect(turns).toEqual([
			['m0', 'm1', 'm2'],
			['m3', 'm4'],
			['m5', 'm6', 'm7', 'm8'],
			['m9', 'm10'],
		]);
	});

	it.each(chat.map((message) => [message.shortId]))(
		'reading only from the last pause before %s gives the same decision',
		(shortId) => {
			const own = chat.findIndex((m) => m.shortId === shortId);
			let start = own;
			while (start > 0 && chat[start].timestamp - chat[start - 1].timestamp < RULE.silenceSeconds)
				start--;
			// The history a later page bound would give: one pause back, and everything newer.
			const partial = chat.slice(Math.max(0, start - 1));
			expect(decideBurst(partial, shortId, RULE, start === 0)).toEqual(
				decideBurst(chat, shortId, RULE, true),
			);
		},
	);

	it('says when the history read may not reach the pause that began the turn', () => {
		const decision = decideBurst(chat.slice(6, 9), 'm8', RULE, false);
		expect(decision).toMatchObject({ goOn: true, boundaryKnown: false });
	});

	it('has no decision for a message the history lacks', () => {
		expect(decideBurst(chat, 'missing', RULE, true)).toBeUndefined();
	});
});
