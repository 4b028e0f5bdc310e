/**
 * The generated sections of the documentation (figures and tables a run wrote between
 * `<!-- NAME -->` and `<!-- /NAME -->`) live in README.md or a page under docs/: each in exactly one
 * document, which the suites that measure them read and write.
 */
import {
	readReadmeSection,
	readmeSectionFile,
	sectionDocuments,
	writeReadmeSection,
} from '../support/readme-section.cts';
import { generatedSections, withDocuments } from './documents.cts';

describe('generated sections', () => {
	it('are found in the documents', () => {
		expect(generatedSections()).toEqual(
			expect.arrayContaining([
				'compatibility:operations',
				'performance:results',
				'queue:figures',
				'reliability:faults',
			]),
		);
	});

	it.each(generatedSections())(
		'%s: in exactly one document, with its end marker after it',
		(name) => {
			expect(sectionDocuments()).toContain(readmeSectionFile(name));
			expect(readReadmeSection(name)).toEqual(expect.stringMatching(/\S/));
		},
	);
});

describe('finding a section in README.md or docs/*.md', () => {
	const project = {
		'README.md': '# Title\n\n<!-- a:one -->\nold one\n<!-- /a:one -->\n',
		'docs/page.md': '# Page\n\n<!-- b:two -->\nold two\n<!-- /b:two -->\n\nafter\n',
	};

	it('reads a section from README.md or from a page under docs/', () => {
		withDocuments(project, (root) => {
			expect(readmeSectionFile('a:one', root)).toBe('README.md');
			expect(readReadmeSection('a:one', root)).toBe('old one');
			expect(readmeSectionFile('b:two', root)).toBe('docs/page.md');
			expect(readReadmeSection('b:two', root)).toBe('old two');
		});
	});

	it('writes a section into the document that holds it, and names that document', () => {
		withDocuments(project, (root, read) => {
			expect(writeReadmeSection('b:two', 'new two\n', root)).toBe('docs/page.md');
			expect(read('docs/page.md')).toBe(
				'# Page\n\n<!-- b:two -->\nnew two\n<!-- /b:two -->\n\nafter\n',
			);
			expect(read('README.md')).toBe(project['README.md']);
		});
	});

	it('refuses a section no document holds, naming it', () => {
		withDocuments(project, (root) => {
			expect(() => readReadmeSection('c:missing', root)).toThrow(
				/No document holds the section c:missing/,
			);
			expect(() => writeReadmeSection('c:missing', 'text', root)).toThrow(/c:missing/);
		});
	});

	it('refuses a section whose markers are in two documents, naming it and both', () => {
		const twice = { ...project, 'docs/other.md': '<!-- a:one -->\ncopy\n<!-- /a:one -->\n' };
		withDocuments(twice, (root) => {
			expect(() => readReadmeSection('a:one', root)).toThrow(
				'The section a:one has markers in README.md and docs/other.md',
			);
		});
	});
});
