/**
 * Send Text → Split Into Messages: the splitter on its own, as tables (paragraphs, sentences with
 * numbers, abbreviations and URLs, maximum length never inside a word, URL or code block, long
 * single words, empty text, emoji), and the typing time of a part.
 */
import {
	splitText,
	textLength,
	typingTimeOf,
} from '../../nodes/MessagingGateway/helpers/text-parts';
import type { SplitMode } from '../../nodes/MessagingGateway/helpers/text-parts';

const FENCE = '```';

describe('splitText', () => {
	it.each<[string, string, SplitMode, number | undefined, string[]]>([
		['off keeps the text as typed', '  Hi!\n\nBye.  ', 'off', undefined, ['  Hi!\n\nBye.  ']],
		['off keeps an empty text', '', 'off', undefined, ['']],
		// Paragraphs
		[
			'paragraphs at blank lines',
			'Hi there.\n\nYour order is ready.',
			'paragraph',
			undefined,
			['Hi there.', 'Your order is ready.'],
		],
		[
			'several blank lines and spaces between',
			'One\n \n\t\n\nTwo\n\n\nThree',
			'paragraph',
			undefined,
			['One', 'Two', 'Three'],
		],
		[
			'a single line break is no paragraph',
			'Line one\nLine two',
			'paragraph',
			undefined,
			['Line one\nLine two'],
		],
		['CRLF blank lines', 'One\r\n\r\nTwo', 'paragraph', undefined, ['One', 'Two']],
		[
			'a code block with blank lines stays whole',
			`Code:\n\n${FENCE}js\na();\n\nb();\n${FENCE}\n\nDone`,
			'paragraph',
			undefined,
			['Code:', `${FENCE}js\na();\n\nb();\n${FENCE}`, 'Done'],
		],
		[
			'a text that needs no split is one part',
			'Just one line.',
			'paragraph',
			undefined,
			['Just one line.'],
		],
		['whitespace only gives no part', ' \n\n \t ', 'paragraph', undefined, []],
		['empty text gives no part', '', 'paragraph', undefined, []],
		// Sentences
		[
			'sentences at . ! ?',
			'Hello! How are you? I am fine. Bye',
			'sentence',
			undefined,
			['Hello!', 'How are you?', 'I am fine.', 'Bye'],
		],
		[
			'a sentence end before a line break',
			'First.\nSecond line',
			'sentence',
			undefined,
			['First.', 'Second line'],
		],
		[
			'not inside numbers',
			'It costs 3.5 dollars. Pay 1,000.50 now.',
			'sentence',
			undefined,
			['It costs 3.5 dollars.', 'Pay 1,000.50 now.'],
		],
		[
			'not after e.g. or i.e.',
			'Bring fruit, e.g. apples. Or i.e. pears!',
			'sentence',
			undefined,
			['Bring fruit, e.g. apples.', 'Or i.e. pears!'],
		],
		[
			'not after titles and initials',
			'Dr. Smith and J. Doe met Mr. Xavier. Then left.',
			'sentence',
			undefined,
			['Dr. Smith and J. Doe met Mr. Xavier.', 'Then left.'],
		],
		[
			'not inside a URL, but after it',
			'See https://example.com/a.b?c=1. Then call.',
			'sentence',
			undefined,
			['See https://example.com/a.b?c=1.', 'Then call.'],
		],
		[
			'www URLs too',
			'Go to www.example.com. Thanks',
			'sentence',
			undefined,
			['Go to www.example.com.', 'Thanks'],
		],
		[
			'closing quotes stay with the sentence',
			'He said "stop." Then (he left.) OK',
			'sentence',
			undefined,
			['He said "stop."', 'Then (he left.)', 'OK'],
		],
		[
			'?! and ellipsis end sentences',
			'Really?! Wait... okay',
			'sentence',
			undefined,
			['Really?!', 'Wait...', 'okay'],
		],
		[
			'emoji after the end stay with the sentence',
			'Thanks! 🙏 👍🏽 See you soon. 👨‍👩‍👧',
			'sentence',
			undefined,
			['Thanks! 🙏 👍🏽', 'See you soon. 👨‍👩‍👧'],
		],
		['flags are emoji', 'Welcome! 🇧🇷 Next', 'sentence', undefined, ['Welcome! 🇧🇷', 'Next']],
		[
			'not inside inline code',
			'Run `a. b` now. Done',
			'sentence',
			undefined,
			['Run `a. b` now.', 'Done'],
		],
		[
			'not inside a code block',
			`Use:\n${FENCE}\nx = 1. y = 2.\n${FENCE}\nOk. Bye`,
			'sentence',
			undefined,
			[`Use:\n${FENCE}\nx = 1. y = 2.\n${FENCE}\nOk.`, 'Bye'],
		],
		[
			'blank lines split sentences too',
			'No period here\n\nNext one',
			'sentence',
			undefined,
			['No period here', 'Next one'],
		],
		[
			'unicode letters',
			'Olá! Você está bem? Ótimo.',
			'sentence',
			undefined,
			['Olá!', 'Você está bem?', 'Ótimo.'],
		],
		['one sentence is one part', '  Only this.  ', 'sentence', undefined, ['Only this.']],
		// Maximum length
		['longest prefix ending at a space', 'aaa bbb ccc ddd', 'maxLength', 7, ['aaa bbb', 'ccc ddd']],
		['a prefix may end at a line break', 'aaa\nbbb ccc', 'maxLength', 8, ['aaa\nbbb', 'ccc']],
		[
			'never inside a word',
			'hello wonderful world',
			'maxLength',
			8,
			['hello', 'wonderful', 'world'],
		],
		[
			'a word longer than the maximum is a part alone',
			'a supercalifragilistic b',
			'maxLength',
			5,
			['a', 'supercalifragilistic', 'b'],
		],
		[
			'a URL stays whole',
			'see https://example.com/a/very/long/path ok',
			'maxLength',
			10,
			['see', 'https://example.com/a/very/long/path', 'ok'],
		],
		[
			'a code block stays whole',
			`x ${FENCE}a b c d e f${FENCE} y`,
			'maxLength',
			6,
			['x', `${FENCE}a b c d e f${FENCE}`, 'y'],
		],
		[
			'inline code stays whole',
			'run `npm run build now` please',
			'maxLength',
			10,
			['run', '`npm run build now`', 'please'],
		],
		['a text within the maximum is one part', ' short text ', 'maxLength', 100, ['short text']],
		['emoji count as one character each', '😀😀 😀😀', 'maxLength', 5, ['😀😀 😀😀']],
		['emoji sequences are never cut', '👨‍👩‍👧 👨‍👩‍👧', 'maxLength', 3, ['👨‍👩‍👧', '👨‍👩‍👧']],
		['empty text gives no part', '', 'maxLength', 10, []],
	])('%s', (_name, text, mode, max, expected) => {
		expect(splitText(text, mode, max)).toEqual(expected);
	});

	it.each([
		[30, 'The quick brown fox jumps over the lazy dog. '.repeat(12)],
		[12, 'Olá, mundo! Tudo bem? https://example.com/abc ok `a b` fim.\n\nNovo parágrafo aqui.'],
	])(
		'maximum length %i: every part fits unless it is one unit, and the words come back in order',
		(max, text) => {
			const parts = splitText(text, 'maxLength', max);
			for (const part of parts) {
				if (textLength(part) > max) expect(part).toMatch(/^(\S+|`[^`]+`)$/);
				expect(part).toBe(part.trim());
			}
			expect(parts.join(' ').split(/\s+/)).toEqual(text.trim().split(/\s+/));
		},
	);
});

describe('typingTimeOf', () => {
	const typing = { perCharacter: 40, minimum: 500, maximum: 4000 };
	it.each([
		['a short part gets the minimum', 'Hi', 500],
		['grows with the length', 'x'.repeat(50), 2000],
		['bounded by the maximum', 'x'.repeat(500), 4000],
		['counts emoji as one character', '😀'.repeat(20), 800],
	])('%s', (_name, part, expected) => {
		expect(typingTimeOf(part, typing)).toBe(expected);
	});
});
