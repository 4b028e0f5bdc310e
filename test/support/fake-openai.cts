/**
 * A tiny OpenAI-compatible chat model for end-to-end tests of AI Agent workflows: the first
 * completion of a conversation calls the one tool the agent offers with scripted arguments (when
 * their keys are the tool's parameters; otherwise it answers with a text saying so), and once the
 * conversation holds that tool's result it answers with a final text. Every request is recorded,
 * so a test can see which tools the agent offered and what the tool answered.
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
}

export interface FakeOpenAi {
	/** The base URL to put in the OpenAI credential, e.g. http://127.0.0.1:40000/v1 */
	baseUrl: string;
	completions: RecordedCompletion[];
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

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
	const completions: RecordedCompletion[] = [];
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
			if (req.method === 'GET' && path === '/v1/models') {
				send(200, {
					object: 'list',
					data: [{ id: FAKE_MODEL, object: 'model', owned_by: 'fake' }],
				});
				return;
			}
			if (req.method !== 'POST' || path !== '/v1/chat/completions') {
				send(404, { error: { message: `No route ${req.method} ${path} in the fake model` } });
				return;
			}
			let body: CompletionRequest;
			try {
				body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CompletionRequest;
			} catch {
				send(400, { error: { message: 'The body is not JSON' } });
				return;
			}
			const result = answer(body, current);
			if (result.answered) {
				completions.push({
					authorization: req.headers.authorization,
					body,
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
		script: (script) => {
			current = script;
		},
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
