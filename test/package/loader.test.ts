import { PackageDirectoryLoader } from 'n8n-core';

import packageJson from '../../package.json';
import { NODE_VERSION, PROJECT_ROOT } from '../support/paths.cts';

// Loads the built package (dist/, as `npm test` builds it first) with n8n's own loader,
// the same class n8n uses for community packages.
describe('the package as n8n loads it', () => {
	it('loads the credential and the nodes from dist/ without errors', async () => {
		const loader = new PackageDirectoryLoader(PROJECT_ROOT);
		await loader.loadAll();

		expect(loader.packageName).toBe('n8n-nodes-messaging-gateway');
		expect(Object.keys(loader.credentialTypes)).toEqual(['messagingGatewayApi']);
		// Found by "WhatsApp" too in n8n's credential search, which reads the display name only.
		expect(loader.credentialTypes.messagingGatewayApi.type.displayName).toBe(
			'Messaging Gateway (WhatsApp) API',
		);
		expect(Object.keys(loader.nodeTypes)).toEqual(expect.arrayContaining(['messagingGateway']));
		// n8n derives the AI-agent tool variant from this flag when it registers the node
		expect(loader.nodeTypes.messagingGateway.type.description.usableAsTool).toBe(true);
		expect(loader.types.nodes.map((node) => node.name).sort()).toEqual([
			'messagingGateway',
			'messagingGatewayTrigger',
		]);
		expect(loader.nodeTypes.messagingGatewayTrigger.type.description.usableAsTool).toBeUndefined();
		expect(loader.types.credentials.map((type) => type.name)).toEqual(['messagingGatewayApi']);
	});

	it('keeps the house rules of a verified community package', () => {
		expect(packageJson.name).toBe('n8n-nodes-messaging-gateway');
		expect(packageJson.keywords).toContain('n8n-community-node-package');
		expect(packageJson).not.toHaveProperty('dependencies');
		expect(packageJson.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(packageJson.devDependencies['n8n-workflow']).toMatch(/^2\.41\.\d+$/);
		expect(packageJson.devDependencies['n8n-core']).toMatch(/^2\.41\.\d+$/);
		expect(packageJson.n8n.strict).toBe(true);
		expect(packageJson.files[0]).toBe('dist');
		for (const file of [...packageJson.n8n.credentials, ...packageJson.n8n.nodes]) {
			expect(file).toMatch(/^dist\//);
		}
	});

	it('runs on Node.js 24, which n8n 2.x requires, although the machine has an older Node', () => {
		expect(NODE_VERSION).toMatch(/^v24\./);
	});
});
