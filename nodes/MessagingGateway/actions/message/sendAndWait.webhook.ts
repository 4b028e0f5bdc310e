/**
 * The answer's side of Send and Wait for Response: the node's resume webhook, which n8n calls when
 * the person opens a link, in a request of its own, long after the send.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { escapeHtml } from '../../../shared/values';
import type { ResponseType } from './sendAndWait.request';

/** Link-preview fetchers and crawlers: opening a link is not an answer when they do it. */
const PREVIEW_AGENTS =
	/whatsapp|facebookexternalhit|facebot|telegrambot|slackbot|twitterbot|discordbot|linkedinbot|skypeuripreview|googlebot|bingbot|applebot|embedly|preview|crawler|spider|\bbot\b/i;

function page(title: string, body: string): string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}textarea{width:100%;min-height:8rem;font:inherit}button{margin-top:1rem;padding:.6rem 1.2rem;font:inherit}</style></head><body><h1>${title}</h1>${body}</body></html>`;
}

/**
 * The resume webhook of Send and Wait for Response: n8n calls it for the signed links the
 * message carries (it has checked the signature; a wrong or reused link never gets here). An
 * approval link answers when opened; the free text link shows a page whose form answers.
 */
export async function webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const response = this.getResponseObject();
	const responseType = this.getNodeParameter('responseType', 'approval') as ResponseType;
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const answeredText = escapeHtml(
		String(options.answeredText || 'Got it, thanks. You can close this page now.'),
	);
	const answered = page('Thank you', `<p>${answeredText}</p>`);
	const respondedAt = new Date().toISOString();

	if (
		request.method === 'GET' &&
		PREVIEW_AGENTS.test(String(request.headers['user-agent'] ?? ''))
	) {
		response.status(204).end();
		return { noWebhookResponse: true };
	}
	if (responseType === 'freeText') {
		const body = request.method === 'POST' ? this.getBodyData() : {};
		const text = typeof body.response === 'string' ? body.response.trim() : '';
		// The page until an answer is typed: opening it, or sending it empty, answers nothing.
		if (text === '') {
			const title = escapeHtml(String(options.formTitle || 'Your answer'));
			const button = escapeHtml(String(options.formButtonLabel || 'Send'));
			response
				.status(200)
				.type('html')
				.send(
					page(
						title,
						`<form method="POST"><textarea name="response" required aria-label="${title}"></textarea><br><button type="submit">${button}</button></form>`,
					),
				);
			return { noWebhookResponse: true };
		}
		return {
			webhookResponse: answered,
			workflowData: [[{ json: { data: { text, respondedAt } } }]],
		};
	}
	const query = this.getQueryData() as IDataObject;
	return {
		webhookResponse: answered,
		workflowData: [[{ json: { data: { approved: query.approved === 'true', respondedAt } } }]],
	};
}
