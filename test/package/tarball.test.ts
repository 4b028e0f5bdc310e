import { n8nEntryFiles, packedFiles } from './repository.cts';

describe('the published tarball', () => {
	const pack = packedFiles();

	it('ships only what n8n loads: compiled JavaScript, node JSON, icons, and the README, licence and manifest', () => {
		const unexpected = pack.files.filter(
			(file) =>
				!['README.md', 'LICENSE.md', 'package.json'].includes(file) &&
				!/^dist\/.+\.(js|json|svg)$/.test(file),
		);
		expect(unexpected).toEqual([]);
		// No source maps, type declarations or build info: n8n never reads them.
		expect(pack.files.filter((file) => /\.(map|d\.ts|tsbuildinfo)$/.test(file))).toEqual([]);
	});

	it('contains every file the n8n section of package.json names, and the icons they use', () => {
		expect(pack.files).toEqual(expect.arrayContaining(n8nEntryFiles()));
		expect(pack.files).toEqual(
			expect.arrayContaining([
				'dist/icons/messaging-gateway.svg',
				'dist/icons/messaging-gateway.dark.svg',
			]),
		);
	});
});
