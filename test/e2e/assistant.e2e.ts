/**
 * The WhatsApp AI assistant example (examples/ai-whatsapp-assistant.json) as a user imports it, in
 * a real n8n 2.41.1, on WAHA (the simulator playing it) with n8n's own OpenAI nodes and chat model
 * pointed at a scripted OpenAI-compatible server on the loopback (test/support/fake-openai.cts).
 * Each turn below is what a person writes, in real time; the test checks what reached OpenAI (the
 * voice note's and the photo's very bytes, and one agent prompt per turn with every message in the
 * order sent) and what reached WAHA (the agent's reaction, then its reply as one message per
 * paragraph, each after "typing…").
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { judgeWaha, SEED, startSimulator } from '../simulator/index.cts';
import type { MessageSnapshot, Simulator } from '../simulator/index.cts';
import { avatarPng } from '../simulator/png.cts';
import { startFakeOpenAi } from '../support/fake-openai.cts';
import type { FakeOpenAi } from '../support/fake-openai.cts';
import { activate, allExecutions, createCredential, logFigures, until } from './e2e-helpers.cts';
import {
	createFakeOpenAiCredential,
	CREDENTIAL_NAMES,
	finishedExecutions,
	firstItems,
	importExample,
	outcome,
	runDataOf,
	withSession,
} from './example-runs.cts';
import { refusedRequests } from './gateway-choice.cts';
import { startN8n } from './n8n-instance.cts';
import type { N8nInstance } from './n8n-instance.cts';
import { CREDENTIAL_TYPE, readExample } from './workflows.cts';

const EXAMPLE = 'ai-whatsapp-assistant.json';
const SESSION = SEED.instances.connected.name;
const ALICE = SEED.contacts.alice;
/** A voice note as WhatsApp records it: Opus in an Ogg container (here, its first page and noise). */
const VOICE_NOTE = Buffer.concat([
	Buffer.from('OggS\x00\x02', 'latin1'),
	Buffer.from(Array.from({ length: 2048 }, (_, index) => (index * 37 + 11) % 256)),
]);
const VOICE_NOTE_TYPE = 'audio/ogg; codecs=opus';
const PHOTO = avatarPng([180, 120, 40], 40);
/** How much of the pause is left when the person's message is written (seconds). */
const PAUSE_LEFT_S = 90;

/** The example's Pause For (Minutes): how long the bot stays quiet after a person answered. */
const PAUSE_MINUTES = 30;
/** The example's Typing Before Each Part at its defaults: 40 ms a character, 0.5 s to 4 s. */
const typingMs = (part: string) => Math.min(4000, Math.max(500, [...part].length * 40));

type Sent = { text: string } | { voiceNote: Buffer } | { photo: Buffer; caption?: string };

interface Turn {
	name: string;
	/** What the person sends, one message after another, faster than the silence time. */
	messages: Sent[];
	transcript?: string;
	imageDescription?: string;
	/** The agent's prompt: one line per message, in the order sent. */
	prompt: string;
	/** The model's answer, which the customer must get as one message per paragraph. */
	reply: string[];
}

const TURNS: Turn[] = [
	{
		name: 'a text',
		messages: [{ text: 'Hi! Do you have sourdough today?' }],
		prompt: 'Hi! Do you have sourdough today?',
		reply: ['Hi! Yes, we baked sourdough this morning.', 'Shall I keep a loaf for you?'],
	},
	{
		name: 'a voice note',
		messages: [{ voiceNote: VOICE_NOTE }],
		transcript: 'Yes please, keep two loaves for me.',
		prompt: '[Voice note] Yes please, keep two loaves for me.',
		reply: ['Done: two sourdough loaves are waiting for you.', 'We are open until 6 pm.'],
	},
	{
		name: 'a photo with a caption',
		messages: [{ photo: PHOTO, caption: 'And one of these?' }],
		imageDescription: 'A round golden loaf with a cross cut on top.',
		prompt: '[Photo: A round golden loaf with a cross cut on top.] And one of these?',
		reply: ['That is our country loaf: I added one to your order.'],
	},
	{
		name: 'a voice note then two texts, within the silence time',
		messages: [
			{ voiceNote: VOICE_NOTE },
			{ text: 'for tomorrow' },
			{ text: 'and a croissant too' },
		],
		transcript: 'Actually, can I pick everything up',
		prompt: '[Voice note] Actually, can I pick everything up\nfor tomorrow\nand a croissant too',
		reply: [
			'Of course! Your order moves to tomorrow.',
			'Two sourdough loaves, one country loaf and a croissant.',
			'See you then!',
		],
	},
	{
		// Each kind takes its own branch, so the lines come back by kind: the order is the turn's.
		name: 'a text, a photo and a voice note, within the silence time',
		messages: [{ text: 'One more thing' }, { photo: PHOTO }, { voiceNote: VOICE_NOTE }],
		imageDescription: 'A cake with white icing and the number 7 on it.',
		transcript: 'Could you make this one for Saturday?',
		prompt:
			'One more thing\n[Photo: A cake with white icing and the number 7 on it.]\n[Voice note] Could you make this one for Saturday?',
		reply: ['Yes, we can bake that cake for Saturday.', 'I will confirm the price tomorrow.'],
	},
];

let simulator: Simulator;
let fakeOpenAi: FakeOpenAi;
let n8n: N8nInstance;
let workflowId: string;
const credentialIds: Record<string, string> = {};

beforeAll(async () => {
	simulator = await startSimulator({ gateway: 'waha' });
	fakeOpenAi = await startFakeOpenAi();
	n8n = await startN8n();
	const gateway = await createCredential(n8n, CREDENTIAL_NAMES[CREDENTIAL_TYPE], {
		gateway: 'waha',
		baseUrl: simulator.url,
		apiKey: simulator.apiKey,
	});
	credentialIds[CREDENTIAL_TYPE] = gateway.id;
	credentialIds.openAiApi = await createFakeOpenAiCredential(n8n, fakeOpenAi);
	workflowId = await importExample(n8n, withSession(readExample(EXAMPLE), SESSION), credentialIds);
	await activate(n8n, workflowId);
}, 300_000);

afterAll(async () => {
	if (workflowId) await n8n?.api.post(`/workflows/${workflowId}/deactivate`, {});
	await n8n?.stop();
	await fakeOpenAi?.stop();
	await simulator?.stop();
});

async function send(message: Sent): Promise<MessageSnapshot> {
	if ('text' in message)
		return await simulator.injectInboundMessage({ from: ALICE.number, ...message });
	const [mimetype, data, caption] =
		'voiceNote' in message
			? [VOICE_NOTE_TYPE, message.voiceNote, undefined]
			: ['image/png', message.photo, message.caption];
	return await simulator.injectInboundMessage({
		from: ALICE.number,
		media: { mimetype, base64: data.toString('base64'), ...(caption ? { caption } : {}) },
	});
}

/** The requests of the reply: WAHA's presence and sends, in the order they arrived. */
function replyRequests(since: number) {
	return simulator.requests
		.slice(since)
		.filter(
			(request) =>
				(request.method === 'POST' && request.path === `/api/${SESSION}/presence`) ||
				(request.method === 'POST' && request.path === '/api/sendText'),
		);
}

let executionsSoFar = 0;
/** Per turn, from the person's last message: the first "typing…", and the reply's last message (ms). */
const timings: Array<{ turn: string; firstTypingMs: number; lastMessageMs: number }> = [];

describe(`${EXAMPLE} on WAHA with OpenAI, imported unchanged`, () => {
	it.each(TURNS)(
		'$name: one agent run with every message in order; the reply as one message per paragraph, typing before each',
		async (turn) => {
			fakeOpenAi.script({
				toolArguments: { emoji: '👍' },
				finalText: turn.reply.join('\n\n'),
				transcript: turn.transcript,
				imageDescription: turn.imageDescription,
			});
			const before = {
				requests: simulator.requests.length,
				completions: fakeOpenAi.completions.length,
				transcriptions: fakeOpenAi.transcriptions.length,
				imageAnalyses: fakeOpenAi.imageAnalyses.length,
			};

			const sent: MessageSnapshot[] = [];
			for (const message of turn.messages) sent.push(await send(message));
			const lastSentAt = Date.now();
			executionsSoFar += turn.messages.length;
			const executions = await finishedExecutions(n8n, workflowId, executionsSoFar);
			const mine = executions
				.filter((execution) =>
					sent.some(
						(message) =>
							firstItems(runDataOf(execution), 'On Message')[0]?.json.messageId === message.id,
					),
				)
				.map((execution) => ({ outcome: outcome(execution), runData: runDataOf(execution) }));
			expect(mine.map((execution) => execution.outcome)).toEqual(
				turn.messages.map(() => 'success'),
			);

			// One execution per message; only the last message's goes on, with the whole turn.
			const goingOn = mine.filter((execution) => execution.runData['AI Agent']);
			expect(goingOn).toHaveLength(1);
			expect(firstItems(goingOn[0].runData, 'On Message')[0].json.messageId).toBe(sent.at(-1)!.id);
			for (const execution of mine.filter((candidate) => candidate !== goingOn[0])) {
				expect(firstItems(execution.runData, 'Combine Rapid Messages')).toEqual([]);
			}
			expect(
				firstItems(goingOn[0].runData, 'Combine Rapid Messages').map((item) => item.json.messageId),
			).toEqual(sent.map((message) => message.id));

			// OpenAI heard each voice note and saw each photo, byte for byte.
			const voiceNotes = turn.messages.flatMap((message) =>
				'voiceNote' in message ? [message.voiceNote] : [],
			);
			const heard = fakeOpenAi.transcriptions.slice(before.transcriptions);
			expect(heard.map(({ bytes, contentType, model }) => ({ bytes, contentType, model }))).toEqual(
				voiceNotes.map((bytes) => ({ bytes, contentType: VOICE_NOTE_TYPE, model: 'whisper-1' })),
			);
			const photos = turn.messages.flatMap((message) =>
				'photo' in message ? [message.photo] : [],
			);
			const seen = fakeOpenAi.imageAnalyses.slice(before.imageAnalyses);
			expect(seen.map(({ bytes, mimeType, path }) => ({ bytes, mimeType, path }))).toEqual(
				photos.map((bytes) => ({ bytes, mimeType: 'image/png', path: '/responses' })),
			);
			for (const request of [...heard, ...seen])
				expect(request.authorization).toBe('Bearer dummy-openai-key');

			// One agent run: the tool call, then the answer; its prompt is the whole turn, in order.
			const completions = fakeOpenAi.completions.slice(before.completions);
			expect(completions.map((completion) => completion.answered)).toEqual([
				{ toolCall: 'React_to_Message', arguments: { emoji: '👍' } },
				{ text: turn.reply.join('\n\n') },
			]);
			const asked = completions[0].body.messages.filter((message) => message.role === 'user');
			expect(asked.map((message) => message.content)).toEqual([turn.prompt]);

			// WAHA: the reaction on the last message, then one message per paragraph, typing before each.
			const reactions = simulator.requests
				.slice(before.requests)
				.filter((request) => request.path === '/api/reaction');
			expect(reactions.map((request) => request.body)).toEqual([
				expect.objectContaining({ session: SESSION, messageId: sent.at(-1)!.id, reaction: '👍' }),
			]);
			const reply = await until('the whole reply', 30_000, async () => {
				const requests = replyRequests(before.requests);
				return requests.length === turn.reply.length * 2 ? requests : undefined;
			});
			expect(reply.map((request) => request.body)).toEqual(
				turn.reply.flatMap((text) => [
					{ chatId: ALICE.chatId, presence: 'typing' },
					{ session: SESSION, chatId: ALICE.chatId, text },
				]),
			);
			for (const [index, text] of turn.reply.entries()) {
				const [typing, message] = reply.slice(index * 2, index * 2 + 2);
				// Timers may fire a millisecond early; anything shorter would mean no typing at all.
				expect(message.at - typing.at).toBeGreaterThanOrEqual(typingMs(text) - 5);
			}
			const output = firstItems(goingOn[0].runData, 'Reply in Messages')[0].json as IDataObject;
			expect((output.parts as IDataObject[]).map((part) => part.text)).toEqual(turn.reply);
			timings.push({
				turn: turn.name,
				firstTypingMs: reply[0].at - lastSentAt,
				lastMessageMs: reply.at(-1)!.at - lastSentAt,
			});
		},
		120_000,
	);

	it('a person answers from the phone: the bot stays quiet in that chat, and answers again by itself once the pause (30 minutes) is over', async () => {
		// The shop's owner answered Alice from the phone, the 30 minutes of pause ending in 90 s: the
		// time her next message has to be delivered and decided on a busy machine (seconds when quiet).
		const personWrote = Math.floor(Date.now() / 1000) - (PAUSE_MINUTES * 60 - PAUSE_LEFT_S);
		await simulator.injectInboundMessage({
			from: ALICE.number,
			fromMe: true,
			text: 'Hi Alice, Maria here: I will take care of your order myself.',
			timestamp: personWrote,
		});
		const before = {
			requests: simulator.requests.length,
			completions: fakeOpenAi.completions.length,
		};

		const quiet = await send({ text: 'Thank you Maria!' });
		executionsSoFar += 1;
		const [paused] = (await finishedExecutions(n8n, workflowId, executionsSoFar)).filter(
			(execution) => firstItems(runDataOf(execution), 'On Message')[0]?.json.messageId === quiet.id,
		);
		expect(outcome(paused)).toBe('success');
		expect(firstItems(runDataOf(paused), 'Pause While a Person Answers')).toEqual([]);
		expect(runDataOf(paused)['Combine Rapid Messages']).toBeUndefined();
		expect(fakeOpenAi.completions.length).toBe(before.completions);
		expect(replyRequests(before.requests)).toEqual([]);
		// Decided while the pause lasted: after it the node would have let the message on.
		expect(Date.parse(String(paused.stoppedAt))).toBeLessThan(
			(personWrote + PAUSE_MINUTES * 60) * 1000,
		);

		// The pause is over: Alice's next message gets the bot's answer, her earlier one not with it.
		await sleep(Math.max(0, (personWrote + PAUSE_MINUTES * 60 + 2) * 1000 - Date.now()));
		const reply = 'Happy to help again: anything else for tomorrow?';
		fakeOpenAi.script({ toolArguments: { emoji: '👍' }, finalText: reply });
		const answered = await send({ text: 'Is the bakery open on Sunday?' });
		executionsSoFar += 1;
		const [goingOn] = (await finishedExecutions(n8n, workflowId, executionsSoFar)).filter(
			(execution) =>
				firstItems(runDataOf(execution), 'On Message')[0]?.json.messageId === answered.id,
		);
		expect(outcome(goingOn)).toBe('success');
		expect(
			firstItems(runDataOf(goingOn), 'Pause While a Person Answers').map((item) => ({
				paused: item.json.paused,
				personAnswered: typeof item.json.personAnsweredAt,
			})),
		).toEqual([{ paused: false, personAnswered: 'string' }]);
		const asked = fakeOpenAi.completions[before.completions].body.messages.filter(
			(message) => message.role === 'user',
		);
		expect(asked.map((message) => message.content)).toEqual(['Is the bakery open on Sunday?']);
		const sent = await until('the reply', 30_000, async () => {
			const requests = replyRequests(before.requests).filter(
				(request) => request.path === '/api/sendText',
			);
			return requests.length > 0 ? requests : undefined;
		});
		expect(sent.map((request) => request.body)).toEqual([
			{ session: SESSION, chatId: ALICE.chatId, text: reply },
		]);
	}, 240_000);

	it('sent nothing WAHA refuses, and ran no execution beyond one per message', async () => {
		logFigures('assistant turns (Silence Time 3 s, scripted OpenAI on the loopback)', timings);
		expect(refusedRequests(simulator, judgeWaha)).toEqual([]);
		// The turns' messages, and the two of the person's pause.
		expect(await allExecutions(n8n, workflowId)).toHaveLength(
			TURNS.flatMap((turn) => turn.messages).length + 2,
		);
	});
});
