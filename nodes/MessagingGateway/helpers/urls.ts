/** Whether the text is an absolute http(s) URL with a host and no spaces, as the gateway requires. */
export function isHttpUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return /^https?:$/.test(url.protocol) && url.hostname !== '' && !/\s/.test(text);
	} catch {
		return false;
	}
}
