/**
 * A tiny OpenAI-compatible chat model for end-to-end tests of AI Agent workflows: the first
 * completion of a conversation calls the one tool the agent offers with scripted arguments (when
 * their keys are the tool's parameters; otherwise it answers with a text saying so), and once the
 * conversation holds that tool's result it answers with a final text. Every request is recorded,
 * so a test can see which tools the agent offered and what the tool answered.
 *
 * It also hears and sees, as n8n's OpenAI node asks: `POST /v1/audio/transcriptions` (multipart,
 * the file in `file`) answers the scripted transcript, and an image to analyze (the Responses API's
 * `input_image`, or a chat completion's `image_url` part, as a `data:` URL) the scripted
 * description. Each upload is recorded with its bytes, so a test can compare them with the file
 * the person sent.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_MODEL = 'fake-gpt-tools';

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface OfferedTool {
	type: string;
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface CompletionRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: OfferedTool[];
	stream?: boolean;
}

export interface RecordedCompletion {
	authorization: string | undefined;
	body: CompletionRequest;
	/** What the fake answered: a call of this tool, or the final text. */
	answered: { toolCall: string; arguments: Record<string, unknown> } | { text: string };
}

export interface FakeScript {
	/** The arguments of the tool call (the keys of the tool's `$fromAI` parameters). */
	toolArguments: Record<string, unknown>;
	/** The model's last answer, once it has seen the tool's result. */
	finalText: string;
	/** What every audio file transcribes to (without it, a transcription is answered 500). */
	transcript?: string;
	/** How every image is described (without it, an image to analyze is answered 500). */
	imageDescription?: string;
}

/** An audio file sent to `/audio/transcriptions`, as the multipart body carried it. */
export interface RecordedTranscription {
	authorization: string | undefined;
	model: string | undefined;
	fileName: string | undefined;
	contentType: string | undefined;
	bytes: Buffer;
	answered: { text: string };
}

/** An image sent to be analyzed, decoded from its `data:` URL. */
export interface RecordedImageAnalysis {
	authorization: string | undefined;
	/** `/responses` (the OpenAI node 2.x) or `/chat/completions` (1.x). */
	path: string;
	model: string | undefined;
	/** The question asked about the image. */
	prompt: string;
	mimeType: string;
	bytes: Buffer;
	answered: { text: string };
}

export interface FakeOpenAi {
	/** The base URL to put in the OpenAI credential, e.g. http://127.0.0.1:40000/v1 */
	baseUrl: string;
	/** The agent's chat completions (not the image analyses). */
	completions: RecordedCompletion[];
	transcriptions: RecordedTranscription[];
	imageAnalyses: RecordedImageAnalysis[];
	script(script: FakeScript): void;
	stop(): Promise<void>;
}

/** The ID of the fake's tool call, which the tool's result must name. */
export const FAKE_TOOL_CALL_ID = 'call_fake_0001';

function completion(message: Record<string, unknown>, finishReason: string) {
	return {
		id: `chatcmpl-fake-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: FAKE_MODEL,
		choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

/** The answer to one chat completion request, and what it was. */
function answer(
	body: CompletionRequest,
	script: FakeScript | undefined,
): { status: number; json: unknown; answered?: RecordedCompletion['answered'] } {
	if (!script) return { status: 500, json: { error: { message: 'The fake model has no script' } } };
	if (body.stream) {
		return { status: 400, json: { error: { message: 'The fake model does not stream' } } };
	}
	if (body.messages.some((message) => message.role === 'tool')) {
		const text = script.finalText;
		return {
			status: 200,
			json: completion({ role: 'assistant', content: text }, 'stop'),
			answered: { text },
		};
	}
	const tools = body.tools ?? [];
	if (tools.length !== 1) {
		// Which tool to call would be a guess: say so in the answer, where the test sees it.
		const text = `The fake model expected exactly one tool, got ${tools.length}`;
		return {
			status: 200,
			json: completion({ role: 'assistant', content: text }, 'stop'),
			answered: { text },
		};
	}
	const name = tools[0].function.name;
	const offered = Object.keys(
		(tools[0].function.parameters?.properties as Record<string, unknown> | undefined) ?? {},
	).sort();
	const scripted = Object.keys(script.toolArguments).sort();
	if (JSON.stringify(offered) !== JSON.stringify(scripted)) {
		// A call the tool's schema rejects would fail far from the cause: say it in the answer.
		const text = `The fake model's arguments (${scripted.join(', ')}) are not the tool's parameters (${offered.join(', ')})`;
		return {
			status: 200,
			json: completion({ role: 'assistant', content: text }, 'stop'),
			answered: { text },
		};
	}
	const toolCall = {
		id: FAKE_TOOL_CALL_ID,
		type: 'function',
		function: { name, arguments: JSON.stringify(script.toolArguments) },
	};
	return {
		status: 200,
		json: completion({ role: 'assistant', content: null, tool_calls: [toolCall] }, 'tool_calls'),
		answered: { toolCall: name, arguments: script.toolArguments },
	};
}

/** One part of a multipart/form-data body. */
interface FormPart {
	name: string | undefined;
	fileName: string | undefined;
	contentType: string | undefined;
	data: Buffer;
}

/** The parts of a multipart/form-data body (RFC 7578), or undefined when it is not one. */
function formParts(body: Buffer, contentType: string | undefined): FormPart[] | undefined {
	const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
	if (!/^multipart\/form-data/i.test(contentType ?? '') || !boundary) return undefined;
	const delimiter = Buffer.from(`\r\n--${boundary}`);
	// The first delimiter has no line break before it.
	const text = Buffer.concat([Buffer.from('\r\n'), body]);
	const parts: FormPart[] = [];
	let at = text.indexOf(delimiter);
	while (at !== -1) {
		const start = at + delimiter.length;
		if (text.subarray(start, start + 2).toString() === '--') return parts;
		const next = text.indexOf(delimiter, start);
		if (next === -1) return undefined;
		const part = text.subarray(start + 2, next);
		const headerEnd = part.indexOf('\r\n\r\n');
		if (headerEnd === -1) return undefined;
		const headers = part.subarray(0, headerEnd).toString('utf8');
		const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
		parts.push({
			name: /\bname="([^"]*)"/.exec(disposition)?.[1],
			fileName: /\bfilename="([^"]*)"/.exec(disposition)?.[1],
			contentType: /^content-type:\s*(.*?)\s*$/im.exec(headers)?.[1],
			data: part.subarray(headerEnd + 4),
		});
		at = next;
	}
	return undefined;
}

/** A `data:<type>;base64,<data>` URL's type and bytes. */
function dataUrl(url: unknown): { mimeType: string; bytes: Buffer } | undefined {
	const match = /^data:([^;,]+);base64,(.*)$/s.exec(typeof url === 'string' ? url : '');
	return match ? { mimeType: match[1], bytes: Buffer.from(match[2], 'base64') } : undefined;
}

/** The content parts of a request's messages: chat completions' `messages`, the Responses API's `input`. */
function contentParts(body: Record<string, unknown>): Array<Record<string, unknown>> {
	const messages = (Array.isArray(body.messages) ? body.messages : body.input) as unknown;
	if (!Array.isArray(messages)) return [];
	return messages.flatMap((message: { content?: unknown }) =>
		Array.isArray(message?.content) ? (message.content as Array<Record<string, unknown>>) : [],
	);
}

/** The image and question of an image to analyze, or undefined when the request has no image. */
function imageRequest(
	body: Record<string, unknown>,
): { prompt: string; image: { mimeType: string; bytes: Buffer } | undefined } | undefined {
	const parts = contentParts(body);
	const images = parts.filter((part) => part.type === 'image_url' || part.type === 'input_image');
	if (images.length === 0) return undefined;
	const prompt = parts
		.filter((part) => part.type === 'text' || part.type === 'input_text')
		.map((part) => String(part.text))
		.join('\n');
	// Chat completions: {image_url: {url}}; the Responses API: {image_url: "<url>"}.
	const url = images.map((part) =>
		typeof part.image_url === 'object' && part.image_url !== null
			? (part.image_url as { url?: unknown }).url
			: part.image_url,
	);
	return { prompt, image: images.length === 1 ? dataUrl(url[0]) : undefined };
}

/** The Responses API's answer with one message of `text`. */
function responsesAnswer(model: unknown, text: string) {
	return {
		id: `resp_fake${Date.now()}`,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		status: 'completed',
		model: typeof model === 'string' ? model : FAKE_MODEL,
		output: [
			{
				type: 'message',
				id: `msg_fake${Date.now()}`,
				status: 'completed',
				role: 'assistant',
				content: [{ type: 'output_text', text, annotations: [] }],
			},
		],
		usage: { input_tokens: 10, output_tokens: 10, total_tokens: 20 },
	};
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
	const completions: RecordedCompletion[] = [];
	const transcriptions: RecordedTranscription[] = [];
	const imageAnalyses: RecordedImageAnalysis[] = [];
	let current: FakeScript | undefined;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const send = (status: number, json: unknown) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(json));
			};
			const path = (req.url ?? '').split('?')[0];
			const authorization = req.headers.authorization;
			if (req.method === 'GET' && path === '/v1/models') {
				send(200, {
					object: 'list',
					data: [{ id: FAKE_MODEL, object: 'model', owned_by: 'fake' }],
				});
				return;
			}
			const routes = ['/v1/chat/completions', '/v1/responses', '/v1/audio/transcriptions'];
			if (req.method !== 'POST' || !routes.includes(path)) {
				send(404, { error: { message: `No route ${req.method} ${path} in the fake model` } });
				return;
			}
			const raw = Buffer.concat(chunks);
			if (path === '/v1/audio/transcriptions') {
				const parts = formParts(raw, req.headers['content-type']);
				const file = parts?.find((part) => part.name === 'file');
				if (!parts || !file) {
					send(400, { error: { message: 'A transcription needs a multipart body with a file' } });
					return;
				}
				if (current?.transcript === undefined) {
					send(500, { error: { message: 'The fake model has no transcript scripted' } });
					return;
				}
				const text = current.transcript;
				transcriptions.push({
					authorization,
					model: parts.find((part) => part.name === 'model')?.data.toString('utf8'),
					fileName: file.fileName,
					contentType: file.contentType,
					bytes: Buffer.from(file.data),
					answered: { text },
				});
				send(200, { text });
				return;
			}
			let body: Record<string, unknown>;
			try {
				body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
			} catch {
				send(400, { error: { message: 'The body is not JSON' } });
				return;
			}
			const asked = imageRequest(body);
			if (asked || path === '/v1/responses') {
				if (!asked?.image) {
					send(400, { error: { message: 'The fake model analyzes exactly one data: URL image' } });
					return;
				}
				if (current?.imageDescription === undefined) {
					send(500, { error: { message: 'The fake model has no image description scripted' } });
					return;
				}
				const text = current.imageDescription;
				imageAnalyses.push({
					authorization,
					path: path.replace(/^\/v1/, ''),
					model: typeof body.model === 'string' ? body.model : undefined,
					prompt: asked.prompt,
					...asked.image,
					answered: { text },
				});
				send(
					200,
					path === '/v1/responses'
						? responsesAnswer(body.model, text)
						: completion({ role: 'assistant', content: text }, 'stop'),
				);
				return;
			}
			const result = answer(body as unknown as CompletionRequest, current);
			if (result.answered) {
				completions.push({
					authorization,
					body: body as unknown as CompletionRequest,
					answered: result.answered,
				});
			}
			send(result.status, result.json);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		completions,
		transcriptions,
		imageAnalyses,
		script: (script) => {
			current = script;
		},
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
