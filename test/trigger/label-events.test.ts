/**
 * The label events (WhatsApp Business) give the same fields on every gateway, named as people
 * say them: *Chat Label Added or Removed* which label (and its name, when the gateway says it),
 * which chat and `action` added or removed; *Label Edited* the label as it is now, or `deleted`.
 * Evolution API's `labels.association` / `labels.edit` and WAHA's `label.chat.*` / `label.*`.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { SEED } from '../simulator/index.cts';
import { startTriggerHarness } from '../support/trigger-harness.cts';
import type { TriggerHarness } from '../support/trigger-harness.cts';
import { startScriptedWaha } from './trigger-waha-gateway.cts';
import type { ScriptedWaha } from './trigger-waha-gateway.cts';
import { registeredUrl, useTriggerTestbed } from './trigger-testbed.cts';

const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
const EVENTS = ['LABELS_ASSOCIATION', 'LABELS_EDIT'];

/** What each case must give, whichever gateway delivered it. */
const CASES: Array<{
	name: string;
	evolution: { event: string; data: IDataObject };
	waha: { event: string; payload: IDataObject };
	fields: IDataObject;
}> = [
	{
		name: 'a label added to a chat',
		evolution: {
			event: 'labels.association',
			data: { instance: SESSION, type: 'add', chatId: ALICE.jid, labelId: '3' },
		},
		waha: {
			event: 'label.chat.added',
			payload: { labelId: '3', chatId: ALICE.chatId, label: { id: '3', name: 'VIP', color: 1 } },
		},
		fields: {
			event: 'LABELS_ASSOCIATION',
			eventName: 'Chat Label Added or Removed',
			labelId: '3',
			chatId: ALICE.chatId,
			action: 'added',
		},
	},
	{
		name: 'a label removed from a chat',
		evolution: {
			event: 'labels.association',
			data: { instance: SESSION, type: 'remove', chatId: ALICE.jid, labelId: '3' },
		},
		waha: {
			event: 'label.chat.deleted',
			payload: { labelId: '3', chatId: ALICE.chatId, label: null },
		},
		fields: { event: 'LABELS_ASSOCIATION', labelId: '3', chatId: ALICE.chatId, action: 'removed' },
	},
	{
		name: 'a label created or renamed',
		evolution: {
			event: 'labels.edit',
			data: { instance: SESSION, id: '7', name: 'Paid', color: 5, predefinedId: null },
		},
		waha: {
			event: 'label.upsert',
			payload: { id: '7', name: 'Paid', color: 5, colorHex: '#ffa95f' },
		},
		fields: {
			event: 'LABELS_EDIT',
			eventName: 'Label Edited',
			labelId: '7',
			name: 'Paid',
			color: 5,
			deleted: false,
		},
	},
	{
		name: 'a label deleted',
		evolution: {
			event: 'labels.edit',
			data: { instance: SESSION, id: '7', name: 'Paid', color: '5', deleted: true },
		},
		waha: { event: 'label.deleted', payload: { id: '7', name: '', color: 5 } },
		fields: { event: 'LABELS_EDIT', labelId: '7', color: 5, deleted: true },
	},
];

describe('label events on Evolution API (the Messaging Gateway API envelope)', () => {
	const testbed = useTriggerTestbed(SESSION);

	it.each(CASES)('$name', async ({ evolution, fields }) => {
		const trigger = await testbed.start({ events: EVENTS });
		await trigger.activate();
		const answer = await axios.post(
			registeredUrl(trigger),
			{ event: evolution.event, instance: SESSION, data: evolution.data },
			{ validateStatus: () => true },
		);
		expect(answer.status).toBe(200);
		const [[item]] = trigger.executions();
		expect(item.json).toMatchObject({ ...fields, session: SESSION });
		expect(item.json).toHaveProperty('raw.data', evolution.data);
	});
});

describe('label events on WAHA', () => {
	let waha: ScriptedWaha;
	let trigger: TriggerHarness | undefined;
	beforeAll(async () => {
		waha = await startScriptedWaha();
	});
	afterAll(async () => {
		await waha.stop();
	});
	beforeEach(() => waha.reset([{ name: SESSION, status: 'WORKING', config: {} }]));
	afterEach(async () => {
		await trigger?.stop();
	});

	it.each(CASES)('$name', async ({ waha: delivered, fields }) => {
		trigger = await startTriggerHarness({
			gateway: waha,
			parameters: { session: SESSION, events: EVENTS } as never,
			credentialGateway: 'waha',
		});
		await trigger.activate();
		await waha.deliver(SESSION, delivered.event, delivered.payload);
		const [[item]] = trigger.executions();
		expect(item.json).toMatchObject({ ...fields, session: SESSION });
		const label = (delivered.payload.label ?? null) as IDataObject | null;
		if (fields.event === 'LABELS_ASSOCIATION')
			expect(item.json.labelName).toBe(label?.name ?? null);
	});
});
