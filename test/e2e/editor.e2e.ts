import type { Page } from 'playwright-core';

import {
	builtNodes,
	EDITOR_VIEWS,
	missingTexts,
	openEditor,
	startEditorSandbox,
} from '../screenshots/editor.cts';
import type { BuiltNodes, EditorSandbox } from '../screenshots/editor.cts';

// n8n's own editor, in Chromium, with the packed package installed: the views the README shows
// (the same code takes its screenshots) must render our nodes with the labels dist/ describes.
let sandbox: EditorSandbox | undefined;
let editor: { page: Page; close: () => Promise<void> } | undefined;
let built: BuiltNodes;

beforeAll(async () => {
	built = builtNodes();
	sandbox = await startEditorSandbox();
	editor = await openEditor(sandbox);
}, 300_000);

afterAll(async () => {
	await editor?.close();
	await sandbox?.stop();
});

describe("n8n's editor shows the package's nodes", () => {
	it.each(EDITOR_VIEWS.map((view) => [view.caption, view] as const))(
		'%s',
		async (_caption, view) => {
			const expected = view.expectedTexts(built, sandbox!);
			// Labels read from dist/ must exist, or the check below would pass on nothing.
			expect(expected.length).toBeGreaterThanOrEqual(2);
			expect(expected.filter((text) => text.trim() === '')).toEqual([]);

			await view.show(editor!.page, sandbox!);

			expect(await missingTexts(editor!.page, expected)).toEqual([]);
		},
	);
});
