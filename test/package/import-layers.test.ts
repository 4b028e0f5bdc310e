/**
 * Files a person reads at once (at most 400 lines each), and imports that run one way
 * (docs/development.md, "(imports)"): read from the source, every
 * relative import of nodes/ and credentials/. No file reaches itself through others, no two folders
 * import each other (a folder's own files against another folder with what is under it), and the
 * shared core imports neither node, nor one node the other.
 */
import { EDGES, FILES, IMPORTS, lineCount } from './import-graph.cts';

const folderOf = (file: string) => file.slice(0, file.lastIndexOf('/'));
const isUnder = (file: string, folder: string) => file.startsWith(`${folder}/`);

/** The files that reach themselves through their imports (one line per cycle found). */
function cycles(): string[] {
	const found: string[] = [];
	const state = new Map<string, 'open' | 'done'>();
	const trail: string[] = [];
	const visit = (file: string) => {
		state.set(file, 'open');
		trail.push(file);
		for (const next of IMPORTS.get(file) ?? []) {
			if (state.get(next) === 'open') found.push(trail.slice(trail.indexOf(next)).join(' -> '));
			else if (!state.has(next)) visit(next);
		}
		trail.pop();
		state.set(file, 'done');
	};
	for (const file of FILES) if (!state.has(file)) visit(file);
	return found;
}

/**
 * Folders whose own files import another folder (with what is under it) while that one imports
 * them back: "a <-> b" and one import each way.
 */
function foldersImportingEachOther(): string[] {
	const folders = [...new Set(FILES.map(folderOf))];
	const pairs: string[] = [];
	for (const folder of folders) {
		for (const other of folders) {
			if (other === folder || isUnder(folder, other)) continue;
			const inOther = (file: string) =>
				(folderOf(file) === other || isUnder(file, other)) && folderOf(file) !== folder;
			const out = EDGES.find(({ from, to }) => folderOf(from) === folder && inOther(to));
			const back = EDGES.find(({ from, to }) => inOther(from) && folderOf(to) === folder);
			if (out && back)
				pairs.push(`${folder} <-> ${other}: ${out.from} -> ${out.to}; ${back.from} -> ${back.to}`);
		}
	}
	return pairs;
}

describe('the package’s imports run one way', () => {
	it('reads every source file and its imports', () => {
		expect(FILES.length).toBeGreaterThan(150);
		expect(EDGES.length).toBeGreaterThan(FILES.length);
	});

	it('no file imports itself through others', () => {
		expect(cycles()).toEqual([]);
	});

	it('no two folders import each other', () => {
		expect(foldersImportingEachOther()).toEqual([]);
	});

	it.each([
		{ from: 'nodes/shared', to: 'nodes/MessagingGateway/' },
		{ from: 'nodes/shared', to: 'nodes/MessagingGatewayTrigger/' },
		{ from: 'nodes/MessagingGateway/', to: 'nodes/MessagingGatewayTrigger/' },
		{ from: 'nodes/MessagingGatewayTrigger/', to: 'nodes/MessagingGateway/' },
		// In the core, the gateway folders stand above the other shared files.
		{ from: 'nodes/shared/values', to: 'nodes/shared/gateways' },
		{ from: 'nodes/shared/transport', to: 'nodes/shared/gateways' },
	])('nothing under $from imports $to', ({ from, to }) => {
		const wrong = EDGES.filter((edge) => edge.from.startsWith(from) && edge.to.startsWith(to));
		expect(wrong).toEqual([]);
	});
});

describe('files a person reads at once', () => {
	it('no source file is over 400 lines', () => {
		const long = FILES.filter((file) => lineCount(file) > 400).map(
			(file) => `${file}: ${lineCount(file)}`,
		);
		expect(long).toEqual([]);
	});
});
