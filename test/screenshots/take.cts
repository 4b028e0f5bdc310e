/**
 * `npm run screenshots`: the README's pictures of n8n's real editor with this package installed.
 * Starts the simulator and an n8n in temporary folders, signs in through the editor, opens each view
 * of editor.cts in Chromium and writes it to docs/images/<view>.png; everything stops afterwards,
 * also on failure. `npm run screenshots -- trigger` takes only the named views.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../support/paths.cts';
import { EDITOR_VIEWS, openEditor, startEditorSandbox } from './editor.cts';
import type { EditorSandbox } from './editor.cts';

const IMAGES = path.join(PROJECT_ROOT, 'docs', 'images');

async function main(): Promise<void> {
	const wanted = process.argv.slice(2);
	const unknown = wanted.filter((name) => !EDITOR_VIEWS.some((view) => view.name === name));
	if (unknown.length) {
		throw new Error(
			`Unknown view ${unknown.join(', ')}; the views are ${EDITOR_VIEWS.map((view) => view.name).join(', ')}`,
		);
	}
	const views = EDITOR_VIEWS.filter((view) => !wanted.length || wanted.includes(view.name));
	const started = Date.now();
	console.log('[screenshots] starting the simulator and n8n…');
	let sandbox: EditorSandbox | undefined;
	let closeEditor = async () => {};
	try {
		sandbox = await startEditorSandbox();
		const editor = await openEditor(sandbox);
		closeEditor = editor.close;
		fs.mkdirSync(IMAGES, { recursive: true });
		for (const view of views) {
			await view.show(editor.page, sandbox).catch(async (error) => {
				// What the browser showed when the view did not come up, to see why.
				const shown = path.join(os.tmpdir(), `screenshots-failed-${view.name}.png`);
				await editor.page.screenshot({ path: shown });
				throw new Error(`The view ${view.name} did not come up (the page: ${shown}): ${error}`);
			});
			const file = path.join(IMAGES, `${view.name}.png`);
			await editor.page.screenshot({ path: file, animations: 'disabled' });
			console.log(`[screenshots] ${path.relative(PROJECT_ROOT, file)}: ${view.caption}`);
		}
	} finally {
		await closeEditor();
		await sandbox?.stop();
	}
	console.log(`[screenshots] done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error) => {
	console.error('[screenshots] failed:', error);
	process.exit(1);
});
