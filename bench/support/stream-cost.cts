/**
 * What reading an answer as a stream costs in n8n's own HTTP client, alone: the axios that n8n's
 * request helpers use, sending Send Text to the fake gateway one request after another, the
 * answer buffered (as without a size limit) or streamed as n8n passes it on (maxContentLength
 * Infinity, which makes axios wrap every streamed answer in an async generator that counts its
 * bytes) and streamed without that wrap (maxContentLength -1, which n8n's helpers never pass).
 */
import * as http from 'node:http';
import * as path from 'node:path';

import type { AxiosStatic } from 'axios';

import { FAKE_API_KEY, FAKE_SESSION } from './fake-gateway.cts';
import type { Stats } from './measure.cts';
import { elapsedMs, interleaved } from './measure.cts';

export type AnswerReading = 'buffered' | 'streamed' | 'streamedUnwrapped';

/** The axios n8n's request helpers call (n8n-core → @n8n/backend-network), not the bench's own. */
function n8nAxios(): { axios: AxiosStatic; version: string } {
	const network = require.resolve('@n8n/backend-network', {
		paths: [path.dirname(require.resolve('n8n-core'))],
	});
	const entry = require.resolve('axios', { paths: [path.dirname(network)] });
	const axios = require(entry) as AxiosStatic;
	return { axios, version: (axios as unknown as { VERSION: string }).VERSION };
}

const READINGS: Record<
	AnswerReading,
	{ responseType: 'arraybuffer' | 'stream'; maxContentLength: number }
> = {
	buffered: { responseType: 'arraybuffer', maxContentLength: Infinity },
	streamed: { responseType: 'stream', maxContentLength: Infinity },
	streamedUnwrapped: { responseType: 'stream', maxContentLength: -1 },
};

/** Microseconds per request for each way of reading the answer (median of `rounds`). */
export async function streamCost(
	baseUrl: string,
	requests: number,
	rounds: number,
): Promise<{ axiosVersion: string; perRequestUs: Record<AnswerReading, Stats> }> {
	const { axios, version } = n8nAxios();
	const send = async (reading: AnswerReading): Promise<number> => {
		const start = process.hrtime.bigint();
		for (let index = 0; index < requests; index++) {
			// A new agent per request, as n8n's helpers build one per request.
			const response = await axios({
				method: 'POST',
				url: `${baseUrl}/message/sendText/${FAKE_SESSION}`,
				data: { number: '5511900000000', textMessage: { text: `Order ${index}` } },
				headers: { apikey: FAKE_API_KEY },
				httpAgent: new http.Agent(),
				validateStatus: () => true,
				...READINGS[reading],
			});
			let body: Buffer = response.data as Buffer;
			if (!Buffer.isBuffer(body)) {
				const chunks: Buffer[] = [];
				for await (const chunk of response.data as AsyncIterable<Buffer>) chunks.push(chunk);
				body = Buffer.concat(chunks);
			}
			if (response.status !== 201 || !JSON.parse(body.toString('utf8')).key) {
				throw new Error(`${reading}: unexpected answer ${response.status}`);
			}
		}
		return (elapsedMs(start) * 1000) / requests;
	};
	const perRequestUs = await interleaved<AnswerReading>(
		{
			buffered: () => send('buffered'),
			streamed: () => send('streamed'),
			streamedUnwrapped: () => send('streamedUnwrapped'),
		},
		rounds,
	);
	return { axiosVersion: version, perRequestUs };
}
