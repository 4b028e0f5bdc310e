/**
 * Send Text's Split Into Messages: a reply cut into the messages a person would send, and how long
 * the chat shows "typing…" before each. Pure functions: no n8n, no requests.
 */

export type SplitMode = 'off' | 'paragraph' | 'sentence' | 'maxLength';

export const SPLIT_MODES: readonly SplitMode[] = ['off', 'paragraph', 'sentence', 'maxLength'];

/** A range of the text `[start, end)`. */
interface Span {
	start: number;
	end: number;
}

const FENCE = /```[\s\S]*?(?:```|$)/g;
const INLINE_CODE = /`[^`\n]+`/g;
const URL = /\b(?:https?:\/\/|www\.)\S+/gi;
/** What a URL at the end of a sentence is followed by, and is not part of it. */
const URL_TRAILER = /[.,!?;:)\]'"”’»]+$/;
/** Words that end with a period without ending the sentence (lower case, without the period). */
const ABBREVIATIONS = new Set([
	'approx',
	'dr',
	'e.g',
	'etc',
	'i.e',
	'jr',
	'mr',
	'mrs',
	'ms',
	'no',
	'nr',
	'p.s',
	'prof',
	'sr',
	'sra',
	'st',
	'vs',
]);
/** A token made only of emoji (with their joiners, variation selectors, skin tones and keycaps). */
const EMOJI_ONLY =
	/^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\u200d|\ufe0f|\u20e3|[\u{1f3fb}-\u{1f3ff}])+$/u;
/** Closing quotes and brackets that may follow a sentence's final punctuation. */
const CLOSERS = /[)\]'"”’»]*$/;

/** Code blocks, inline code and URLs: a part never ends inside one. */
function protectedSpans(text: string): Span[] {
	const spans: Span[] = [];
	const inside = (index: number) => spans.some((span) => index >= span.start && index < span.end);
	for (const match of text.matchAll(FENCE)) {
		spans.push({ start: match.index, end: match.index + match[0].length });
	}
	for (const pattern of [INLINE_CODE, URL]) {
		for (const match of text.matchAll(pattern)) {
			if (inside(match.index)) continue;
			let value = match[0];
			if (pattern === URL) value = value.replace(URL_TRAILER, '');
			spans.push({ start: match.index, end: match.index + value.length });
		}
	}
	return spans;
}

/** Every run of whitespace outside code and URLs: where a part may end. */
function whitespaceRuns(text: string, spans: Span[]): Span[] {
	const runs: Span[] = [];
	for (const match of text.matchAll(/\s+/g)) {
		const start = match.index;
		if (spans.some((span) => start > span.start && start < span.end)) continue;
		runs.push({ start, end: start + match[0].length });
	}
	return runs;
}

/** Whether the text before `end` closes a sentence: `.`, `!` or `?`, not after an abbreviation or an initial. */
function endsSentence(text: string, end: number, spans: Span[]): boolean {
	const before = text.slice(0, end).replace(CLOSERS, '');
	const punctuation = /[.!?…]+$/.exec(before);
	if (!punctuation) return false;
	if (spans.some((span) => punctuation.index >= span.start && punctuation.index < span.end)) {
		return false;
	}
	if (/[!?…]/.test(punctuation[0]) || punctuation[0].length > 1) return true;
	// A URL or code span right before the period: its dots are no abbreviation's.
	if (spans.some((span) => span.end === punctuation.index)) return true;
	const word = /(\S*)$/.exec(before.slice(0, punctuation.index))?.[1] ?? '';
	const bare = word.replace(/^[("'“‘«[]+/, '').toLowerCase();
	if (bare === '') return false;
	// "e.g.", "U.S.", "Dr.", and an initial ("J. Smith").
	if (ABBREVIATIONS.has(bare) || bare.includes('.') || /^\p{L}$/u.test(bare)) return false;
	return true;
}

/** Cuts `text` at the given whitespace runs; parts trimmed, empty ones dropped. */
function cutAt(text: string, cuts: Span[]): string[] {
	const parts: string[] = [];
	let start = 0;
	for (const cut of cuts) {
		parts.push(text.slice(start, cut.start));
		start = cut.end;
	}
	parts.push(text.slice(start));
	return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/** Blank lines outside code blocks. */
function paragraphCuts(text: string, runs: Span[]): Span[] {
	return runs.filter((run) => /\n[^\S\n]*\n/.test(text.slice(run.start, run.end)));
}

/** Blank lines, and whitespace after a sentence's end (emoji right after it stay with it). */
function sentenceCuts(text: string, runs: Span[], spans: Span[]): Span[] {
	const cuts: Span[] = [];
	for (let index = 0; index < runs.length; index++) {
		const run = runs[index];
		const blankLine = /\n[^\S\n]*\n/.test(text.slice(run.start, run.end));
		if (!blankLine && !endsSentence(text, run.start, spans)) continue;
		// "Thanks! 🙏 See you": the emoji belong to the sentence they follow.
		let cut = index;
		while (
			!blankLine &&
			cut < runs.length &&
			EMOJI_ONLY.test(text.slice(runs[cut].end, runs[cut + 1]?.start ?? text.length))
		) {
			cut++;
		}
		if (cut >= runs.length) break;
		cuts.push(runs[cut]);
		index = cut;
	}
	return cuts;
}

/** Length as a person counts it: code points, so an emoji is not two. */
export function textLength(text: string): number {
	return [...text].length;
}

/**
 * The longest prefix of at most `max` characters that ends at whitespace, again and again; a
 * word, URL or code block longer than `max` alone is a part of its own.
 */
function lengthCuts(text: string, runs: Span[], max: number): Span[] {
	const cuts: Span[] = [];
	let start = 0;
	let next = 0;
	while (textLength(text.slice(start).trimEnd()) > max) {
		let chosen = -1;
		for (let index = next; index < runs.length; index++) {
			if (textLength(text.slice(start, runs[index].start)) <= max) {
				chosen = index;
				continue;
			}
			// Nothing fits: the first word (URL, code block) alone is the part.
			if (chosen === -1) chosen = index;
			break;
		}
		if (chosen === -1) break;
		cuts.push(runs[chosen]);
		start = runs[chosen].end;
		next = chosen + 1;
	}
	return cuts;
}

/**
 * `text` as the messages to send, in order: by paragraph (blank lines), by sentence (`.`, `!`, `?`
 * followed by whitespace; not after an abbreviation, an initial or inside a number or URL) or by
 * maximum length (the longest prefix of at most `maxLength` characters ending at whitespace).
 * Never inside a word, a URL, a ``` code block or an `inline` code span. Parts are trimmed; empty
 * ones are dropped. Off gives the text unchanged, as one part.
 */
export function splitText(text: string, mode: SplitMode, maxLength = Infinity): string[] {
	if (mode === 'off') return [text];
	const spans = protectedSpans(text);
	const runs = whitespaceRuns(text, spans);
	if (mode === 'paragraph') return cutAt(text, paragraphCuts(text, runs));
	if (mode === 'sentence') return cutAt(text, sentenceCuts(text, runs, spans));
	// Lengths count from the text's first visible character.
	const lead = text.length - text.trimStart().length;
	const trimmed = text.slice(lead);
	const trimmedRuns = runs
		.filter((run) => run.start >= lead)
		.map((run) => ({ start: run.start - lead, end: run.end - lead }));
	return cutAt(trimmed, lengthCuts(trimmed, trimmedRuns, maxLength));
}

export interface TypingTime {
	/** Milliseconds per character. */
	perCharacter: number;
	minimum: number;
	maximum: number;
}

/** How long the chat shows "typing…" before a part: its length times `perCharacter`, within bounds. */
export function typingTimeOf(part: string, typing: TypingTime): number {
	const time = Math.round(textLength(part) * typing.perCharacter);
	return Math.min(typing.maximum, Math.max(typing.minimum, time));
}
