/**
 * Look Up Phone Numbers: a LID's number is asked of the gateway once a day per trigger (once per
 * ten minutes while the gateway does not know it), never across triggers, and a failed lookup
 * starts the workflow with `phone` null and a log line rather than losing the delivery.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import {
	FOUND_FOR_MS,
	forgetPhoneLookups,
	lacksPhone,
	lookUpMissingPhones,
	MAX_KEPT,
	phoneOfLid,
	UNKNOWN_FOR_MS,
} from '../../nodes/MessagingGatewayTrigger/phone-lookups';
import type { PhoneLookup } from '../../nodes/MessagingGatewayTrigger/phone-lookups';
import type { PersonAddresses } from '../../nodes/shared/people';

const LID = '198765432101234@lid';
const PHONE = '5511987650005';
const T0 = 1_800_000_000_000;

function triggerNode(nodeId = 'node-1', workflowId = 'wf-1') {
	const warnings: string[] = [];
	const context = {
		getWorkflow: () => ({ id: workflowId }),
		getNode: () => ({ id: nodeId }),
		logger: { warn: (line: string) => warnings.push(line) },
	} as unknown as IWebhookFunctions;
	return { context, warnings };
}

/** A lookup that answers from a script and counts what it was asked. */
function scriptedLookup(...answers: Array<PersonAddresses | Error>) {
	const asked: string[] = [];
	const lookup = async (lid: string) => {
		asked.push(lid);
		const answer = answers.shift() ?? { phone: null, lid };
		if (answer instanceof Error) throw answer;
		return answer;
	};
	return { asked, lookup };
}

beforeEach(() => forgetPhoneLookups());

describe('phoneOfLid: how often the gateway is asked', () => {
	it.each<[string, Array<PersonAddresses | Error>, number[], Array<string | null>, number]>([
		[
			'a number found is kept a day',
			[{ phone: PHONE, lid: LID }],
			[T0, T0 + 1000, T0 + FOUND_FOR_MS - 1],
			[PHONE, PHONE, PHONE],
			1,
		],
		[
			'a number found is asked again after a day',
			[
				{ phone: PHONE, lid: LID },
				{ phone: PHONE, lid: LID },
			],
			[T0, T0 + FOUND_FOR_MS + 1],
			[PHONE, PHONE],
			2,
		],
		[
			'an unknown number is kept ten minutes, then asked again',
			[
				{ phone: null, lid: LID },
				{ phone: PHONE, lid: LID },
			],
			[T0, T0 + UNKNOWN_FOR_MS - 1, T0 + UNKNOWN_FOR_MS + 1],
			[null, null, PHONE],
			2,
		],
		[
			'a failed lookup counts as unknown for ten minutes',
			[new Error('Gateway error 501: Not Implemented'), { phone: PHONE, lid: LID }],
			[T0, T0 + 1, T0 + UNKNOWN_FOR_MS + 1],
			[null, null, PHONE],
			2,
		],
	])('%s', async (_name, answers, times, expected, requests) => {
		const { context } = triggerNode();
		const { asked, lookup } = scriptedLookup(...answers);

		const phones = [];
		for (const now of times) phones.push(await phoneOfLid.call(context, 'acme', LID, lookup, now));

		expect(phones).toEqual(expected);
		expect(asked).toHaveLength(requests);
	});

	it('never hands one trigger what another trigger found', async () => {
		const first = triggerNode('node-1');
		const second = triggerNode('node-2');
		const { asked, lookup } = scriptedLookup({ phone: PHONE, lid: LID }, { phone: null, lid: LID });

		expect(await phoneOfLid.call(first.context, 'acme', LID, lookup, T0)).toBe(PHONE);
		expect(await phoneOfLid.call(second.context, 'acme', LID, lookup, T0)).toBeNull();
		expect(asked).toEqual([LID, LID]);
	});

	it('logs a failed lookup with its reason and goes on', async () => {
		const { context, warnings } = triggerNode();
		const { lookup } = scriptedLookup(new Error('Gateway error 400: Enable NOWEB store'));

		await expect(phoneOfLid.call(context, 'acme', LID, lookup, T0)).resolves.toBeNull();

		expect(warnings).toEqual([
			expect.stringContaining(
				`the phone number of ${LID} could not be looked up: Gateway error 400: Enable NOWEB store`,
			),
		]);
	});

	it(`keeps at most ${MAX_KEPT} LIDs: the oldest is asked again`, async () => {
		const { context } = triggerNode();
		const { asked, lookup } = scriptedLookup();
		const lidOf = (index: number) => `${100000000000000 + index}@lid`;

		for (let index = 0; index <= MAX_KEPT; index++) {
			await phoneOfLid.call(context, 'acme', lidOf(index), lookup, T0);
		}
		await phoneOfLid.call(context, 'acme', lidOf(MAX_KEPT), lookup, T0 + 1);
		await phoneOfLid.call(context, 'acme', lidOf(0), lookup, T0 + 1);

		expect(asked).toHaveLength(MAX_KEPT + 2);
		expect(asked.at(-1)).toBe(lidOf(0));
	});
});

describe('lookUpMissingPhones: which fields are filled', () => {
	const item = (fields: IDataObject): IDataObject => ({
		session: 'acme',
		chatId: LID,
		isGroup: false,
		phone: null,
		lid: LID,
		senderPhone: null,
		senderLid: LID,
		...fields,
	});

	it.each<[string, IDataObject, IDataObject, Array<[string, string | undefined]>]>([
		[
			'a direct chat: the chat and its sender, one request',
			item({}),
			{ phone: PHONE, senderPhone: PHONE },
			[[LID, undefined]],
		],
		[
			'a group: the member, with the group for a gateway that reads its members',
			item({
				chatId: '120363041234567890@g.us',
				isGroup: true,
				lid: null,
				senderLid: LID,
			}),
			{ phone: null, senderPhone: PHONE },
			[[LID, '120363041234567890@g.us']],
		],
		[
			'a number the delivery gave is not asked for',
			item({ phone: '5511900000001', senderPhone: '5511900000001' }),
			{ phone: '5511900000001', senderPhone: '5511900000001' },
			[],
		],
	])('%s', async (_name, fields, expected, expectedAsks) => {
		const { context } = triggerNode();
		const asks: Array<[string, string | undefined]> = [];
		const lookup: PhoneLookup = async (_session, lid, groupId) => {
			asks.push([lid, groupId]);
			return { phone: PHONE, lid };
		};

		expect(lacksPhone(fields)).toBe(expectedAsks.length > 0);
		await lookUpMissingPhones.call(context, fields, lookup);

		expect(fields).toEqual(expect.objectContaining(expected));
		expect(asks).toEqual(expectedAsks);
	});
});
