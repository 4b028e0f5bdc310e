import { sectionDocuments } from '../support/readme-section.cts';

import { headingAnchor, markdownAnchors, packageMetadata, relativeLinks } from './metadata.cts';

const metadata = packageMetadata();
/** The repository's web address, the one base every other address builds on. */
const repository = metadata.homepage.replace(/#readme$/, '');

describe('package metadata', () => {
	it('homepage, repository and bugs name the same repository', () => {
		expect(metadata.homepage).toBe(`${repository}#readme`);
		expect(repository).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
		expect(metadata.repositoryUrl).toBe(`git+${repository}.git`);
		expect(metadata.bugsUrl).toBe(`${repository}/issues`);
	});

	it('names an author with an e-mail address that is not a template placeholder', () => {
		expect(metadata.author.name).toMatch(/\S/);
		expect(metadata.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
		expect(metadata.author.email).not.toMatch(/example\.(com|org)|your|user@|placeholder/i);
	});

	it.each(metadata.documentationLinks.map((link) => [link.from, link.url]))(
		'%s points at a heading of the README (%s)',
		(_from, url) => {
			expect(url.startsWith(`${repository}#`)).toBe(true);
			expect(markdownAnchors('README.md')).toContain(url.slice(repository.length + 1));
		},
	);
});

describe('links in the documents', () => {
	// README.md and every page under docs/, then the other documents a reader reaches from them.
	it.each([...sectionDocuments(), 'examples/README.md', 'CHANGELOG.md'])(
		'%s: every relative link reaches a file, and every anchor a heading',
		(file) => {
			const broken = relativeLinks(file).filter((link) => !link.exists || !link.anchorFound);
			expect(broken).toEqual([]);
		},
	);

	it.each([
		['## Quick start: an echo bot', 'quick-start-an-echo-bot'],
		['### `npm start`: the sandbox', 'npm-start-the-sandbox'],
		['### Node: Messaging Gateway Trigger', 'node-messaging-gateway-trigger'],
	])('anchors are made as GitHub makes them: %s → #%s', (heading, anchor) => {
		expect(headingAnchor(heading.replace(/^#+\s+/, ''))).toBe(anchor);
	});
});
