/** Where the package's metadata and documents point, for the test that keeps them consistent. */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { PROJECT_ROOT } from '../support/paths.cts';

export interface PackageMetadata {
	homepage: string;
	repositoryUrl: string;
	bugsUrl: string;
	author: { name?: string; email?: string };
	/** Every documentation link a user reaches from n8n: the credential's and the nodes' codex resources. */
	documentationLinks: Array<{ from: string; url: string }>;
}

function readJson(file: string): Record<string, unknown> {
	return JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')) as Record<
		string,
		unknown
	>;
}

function codexLinks(file: string): Array<{ from: string; url: string }> {
	const resources = (readJson(file).resources ?? {}) as Record<string, Array<{ url: string }>>;
	return Object.entries(resources).flatMap(([kind, links]) =>
		links.map((link) => ({ from: `${path.basename(file)} ${kind}`, url: link.url })),
	);
}

export function packageMetadata(): PackageMetadata {
	const pkg = readJson('package.json') as {
		homepage: string;
		repository: { url: string };
		bugs?: { url: string };
		author: { name?: string; email?: string };
	};
	const credential = fs.readFileSync(
		path.join(PROJECT_ROOT, 'credentials', 'MessagingGatewayApi.credentials.ts'),
		'utf8',
	);
	const credentialUrl = /documentationUrl\s*=\s*'([^']+)'/.exec(credential)?.[1] ?? '';
	return {
		homepage: pkg.homepage,
		repositoryUrl: pkg.repository.url,
		bugsUrl: pkg.bugs?.url ?? '',
		author: pkg.author,
		documentationLinks: [
			{ from: 'credential documentationUrl', url: credentialUrl },
			...codexLinks('nodes/MessagingGateway/MessagingGateway.node.json'),
			...codexLinks('nodes/MessagingGatewayTrigger/MessagingGatewayTrigger.node.json'),
		],
	};
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
	return heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings, outside code blocks. */
export function markdownAnchors(file: string): string[] {
	const text = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
	let inCode = false;
	const anchors: string[] = [];
	for (const line of text.split('\n')) {
		if (line.startsWith('```')) inCode = !inCode;
		const heading = /^#{1,6}\s+(.*)$/.exec(line);
		if (!inCode && heading) anchors.push(headingAnchor(heading[1]));
	}
	return anchors;
}

/** Relative links of a Markdown file (`[text](target)`), as `file#anchor` targets. */
export function relativeLinks(
	file: string,
): Array<{ target: string; exists: boolean; anchorFound: boolean }> {
	const text = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
	const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
	return links
		.filter((link) => !/^[a-z]+:/i.test(link))
		.map((link) => {
			const [target, anchor] = link.split('#');
			const targetFile = target === '' ? file : path.join(path.dirname(file), target);
			const exists = fs.existsSync(path.join(PROJECT_ROOT, targetFile));
			const anchorFound =
				anchor === undefined ||
				!targetFile.endsWith('.md') ||
				(exists && markdownAnchors(targetFile).includes(anchor));
			return { target: link, exists, anchorFound };
		});
}
