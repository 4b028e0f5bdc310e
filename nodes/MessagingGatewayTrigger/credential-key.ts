import type { IWebhookFunctions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../shared/transport';

/**
 * How long an API key read from the credential serves deliveries before it is read again. n8n
 * loads and decrypts a credential from its database on every read; a burst of deliveries would
 * otherwise read it once each, beside the writes that store the executions. A key changed in
 * the credential is redacted from deliveries within this time (the envelope's own API key
 * fields are redacted whatever the credential says).
 */
export const API_KEY_MAX_AGE_MS = 60_000;

/** Credentials kept at once; a process serves few (one per trigger credential). */
const MAX_KEPT_KEYS = 64;

interface KeptKey {
	apiKey: Promise<string | undefined>;
	/** The key once the read has succeeded: later deliveries take it without waiting. */
	read?: { apiKey: string | undefined };
	readAt: number;
}

const keptKeys = new Map<string, KeptKey>();

function readApiKey(this: IWebhookFunctions): Promise<string | undefined> {
	return this.getCredentials<{ apiKey?: unknown }>(CREDENTIAL_TYPE).then((credentials) =>
		typeof credentials.apiKey === 'string' ? credentials.apiKey : undefined,
	);
}

/**
 * The API key of the trigger's credential, read at most once per API_KEY_MAX_AGE_MS per
 * credential and process; deliveries arriving together share one read. A failed read is not kept.
 * A key already read is returned as it is, not as a promise: most deliveries need not wait.
 */
export function credentialApiKey(
	this: IWebhookFunctions,
): string | undefined | Promise<string | undefined> {
	const id = this.getNode().credentials?.[CREDENTIAL_TYPE]?.id;
	if (!id) return readApiKey.call(this);
	const now = Date.now();
	let kept = keptKeys.get(id);
	if (!kept || now - kept.readAt >= API_KEY_MAX_AGE_MS) {
		const entry: KeptKey = { apiKey: readApiKey.call(this), readAt: now };
		keptKeys.delete(id);
		if (keptKeys.size >= MAX_KEPT_KEYS) {
			const oldest = keptKeys.keys().next();
			if (!oldest.done) keptKeys.delete(oldest.value);
		}
		keptKeys.set(id, entry);
		entry.apiKey.then(
			(apiKey) => {
				entry.read = { apiKey };
			},
			() => {
				if (keptKeys.get(id) === entry) keptKeys.delete(id);
			},
		);
		kept = entry;
	}
	return kept.read ? kept.read.apiKey : kept.apiKey;
}
