import {
	filesWithFindings,
	prepareScanFolders,
	removeScanFolders,
	scan,
	scannerAnalysisCalls,
	TARBALL_FILE_PATTERNS,
	withChangedFile,
} from './scanner.cts';
import type { Leg, ScanFolders } from './scanner.cts';

/** Appends code on a line of its own (compiled files end in a sourceMappingURL comment without a newline). */
const append = (code: string) => (text: string) => `${text}\n${code}\n`;

describe("n8n's community-package scanner, run offline", () => {
	let folders: ScanFolders;

	beforeAll(() => {
		folders = prepareScanFolders();
	});

	afterAll(() => {
		if (folders) removeScanFolders(folders);
	});

	it('lints what the scanner lints when it downloads a package: the sources, then the tarball', () => {
		const tarballPatterns = `[${TARBALL_FILE_PATTERNS.map((pattern) => `'${pattern}'`).join(', ')}]`;
		expect(scannerAnalysisCalls()).toEqual([
			'sourceDir, SOURCE_FILE_PATTERNS',
			`packageDir, ${tarballPatterns}`,
		]);
	});

	it('finds no violation in the sources or in the packed package', () => {
		// The whole report on failure: ESLint's list of files, lines and rules.
		expect(scan(folders)).toEqual({ source: { passed: true }, tarball: { passed: true } });
	});

	it.each([
		{
			leg: 'source' as Leg,
			file: 'nodes/MessagingGateway/MessagingGateway.node.ts',
			what: 'an import of child_process',
			change: append("import { execSync } from 'child_process';\nexecSync('id');"),
			rule: '@n8n/community-nodes/no-restricted-imports',
		},
		{
			leg: 'source' as Leg,
			file: 'credentials/MessagingGatewayApi.credentials.ts',
			what: 'a read of process.env',
			change: append('export const leaked = process.env.HOME;'),
			rule: '@n8n/community-nodes/no-restricted-globals',
		},
		{
			leg: 'tarball' as Leg,
			file: 'dist/nodes/MessagingGateway/MessagingGateway.node.js',
			what: 'a require of child_process',
			change: append("require('child_process').execSync('id');"),
			rule: '@n8n/community-nodes/no-restricted-imports',
		},
		{
			leg: 'tarball' as Leg,
			file: 'dist/nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node.js',
			what: 'eval',
			change: append("eval('1 + 1');"),
			rule: '@n8n/community-nodes/no-dangerous-functions',
		},
		{
			leg: 'tarball' as Leg,
			file: 'dist/credentials/MessagingGatewayApi.credentials.js',
			what: 'a console statement',
			change: append("console.log('debug');"),
			rule: 'no-console',
		},
		{
			leg: 'tarball' as Leg,
			file: 'package.json',
			what: 'a postinstall script',
			change: (text: string) => {
				const manifest = JSON.parse(text) as { scripts?: Record<string, string> };
				return JSON.stringify({
					...manifest,
					scripts: { ...manifest.scripts, postinstall: 'node setup.js' },
				});
			},
			rule: '@n8n/community-nodes/no-forbidden-lifecycle-scripts',
		},
	])('reports $rule for $what in the $leg ($file)', ({ leg, file, change, rule }) => {
		const changed = withChangedFile(folders, leg, file, change);
		try {
			const result = scan(changed, [leg])[leg];
			expect(result).toMatchObject({ passed: false, message: 'ESLint violations found' });
			expect(result?.details).toContain(rule);
			// Only the changed file has findings: they are the injected code's.
			expect(filesWithFindings(result!, changed[leg])).toEqual([file]);
		} finally {
			removeScanFolders(changed);
		}
	});
});
