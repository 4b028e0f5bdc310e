/**
 * The queue-mode example users start with `docker compose up -d --build` (examples/queue-mode:
 * docker-compose.yml, Dockerfile, Caddyfile, .env.example). Docker is not available where these
 * tests run (no Docker daemon, no Compose), so nothing here builds an image or starts a container:
 * the files are read and their structure is checked. The compose file is parsed with the `yaml`
 * package, merge keys (`<<: *anchor`) resolved as Compose resolves them, so each service is checked
 * as Compose sees it (test/package/queue-compose.cts).
 */
import { DEFAULT_N8N_VERSION } from '../e2e/n8n-install.cts';
import { exampleFile, manifest, parseCompose, readExample } from './queue-compose.cts';

interface Service {
	image?: string;
	build?: string | { context?: string; dockerfile?: string };
	command?: string | string[];
	environment?: Record<string, string | number | boolean | null> | string[];
	depends_on?: string[] | Record<string, { condition?: string }>;
	healthcheck?: { test?: string | string[] };
	deploy?: { replicas?: number };
	volumes?: Array<string | { target?: string }>;
	ports?: Array<string | number>;
}

const compose = parseCompose<{ services: Record<string, Service> }>(
	readExample('docker-compose.yml'),
);
const services = compose.services;
const serviceNames = Object.keys(services);

/** A service's environment as Compose passes it, from the mapping or the `KEY=value` list form. */
function environmentOf(name: string): Record<string, string> {
	const environment = services[name].environment ?? {};
	const entries = Array.isArray(environment)
		? environment.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')])
		: Object.entries(environment).map(([key, value]) => [key, value === null ? '' : String(value)]);
	return Object.fromEntries(entries);
}

const commandOf = (name: string) => ([] as string[]).concat(services[name].command ?? []).join(' ');
const replicasOf = (name: string) => services[name].deploy?.replicas ?? 1;

/** `${NAME}`, `${NAME:?message}` or `${NAME?message}`: NAME, which Compose takes from .env. */
function requiredVariable(value: string | undefined): string | undefined {
	return /^\$\{([A-Z_][A-Z0-9_]*)(:?\?[^}]*)?\}$/.exec(value ?? '')?.[1];
}

/** A setting as the tests compare it: `$NAME` for a reference to a variable, else the value. */
const setting = (value: string | undefined) => {
	const variable = requiredVariable(value);
	return variable ? `$${variable}` : value;
};

/** The services that run n8n: built here, or from an n8n image. */
const n8nServices = serviceNames.filter(
	(name) => services[name].build !== undefined || /n8n/.test(services[name].image ?? ''),
);
const withImage = (prefix: string) =>
	serviceNames.filter((name) => services[name].image?.startsWith(prefix));
const main = n8nServices.filter((name) => ['', 'start'].includes(commandOf(name)));
const webhookProcessors = n8nServices.filter((name) => commandOf(name) === 'webhook');
const workers = n8nServices.filter((name) => commandOf(name) === 'worker');

describe('the queue-mode example: docker-compose.yml', () => {
	it.each([
		{ role: 'PostgreSQL', names: withImage('postgres:'), containers: 1 },
		{ role: 'Redis', names: withImage('redis:'), containers: 1 },
		{ role: 'the n8n main process', names: main, containers: 1 },
		{ role: 'the webhook processor', names: webhookProcessors, containers: 1 },
		{ role: 'the workers', names: workers, containers: 2 },
	])('has $role', ({ names, containers }) => {
		expect(names.length).toBeGreaterThan(0);
		const total = names.reduce((sum, name) => sum + replicasOf(name), 0);
		expect(total).toBeGreaterThanOrEqual(containers);
	});

	it('has every n8n process in one of the roles', () => {
		expect([...main, ...webhookProcessors, ...workers].sort()).toEqual([...n8nServices].sort());
		expect(main).toHaveLength(1);
	});

	it.each(n8nServices)('%s runs the image built from ./Dockerfile', (name) => {
		const { build, image } = services[name];
		const context = typeof build === 'string' ? build : build?.context;
		const dockerfile = (typeof build === 'object' && build.dockerfile) || 'Dockerfile';
		expect(exampleFile(context ?? '', dockerfile)).toBe(exampleFile('Dockerfile'));
		// One tag for all: Compose builds it once, and every process runs the same build.
		expect(image).toBe(services[main[0]].image);
		expect(image).not.toMatch(/^(docker\.n8n\.io\/)?n8nio\/n8n\b/);
	});

	it.each([
		['EXECUTIONS_MODE', 'queue'],
		['N8N_ENCRYPTION_KEY', '$N8N_ENCRYPTION_KEY'],
		['DB_TYPE', 'postgresdb'],
		['DB_POSTGRESDB_HOST', withImage('postgres:')[0]],
		['DB_POSTGRESDB_PORT', '5432'],
		['DB_POSTGRESDB_DATABASE', setting(environmentOf(withImage('postgres:')[0]).POSTGRES_DB)],
		['DB_POSTGRESDB_USER', setting(environmentOf(withImage('postgres:')[0]).POSTGRES_USER)],
		['DB_POSTGRESDB_PASSWORD', setting(environmentOf(withImage('postgres:')[0]).POSTGRES_PASSWORD)],
		['DB_POSTGRESDB_POOL_SIZE', '10'],
		['DB_POSTGRESDB_CONNECTION_TIMEOUT', '60000'],
		['QUEUE_BULL_REDIS_HOST', withImage('redis:')[0]],
		['QUEUE_BULL_REDIS_PORT', '6379'],
		['WEBHOOK_URL', '$WEBHOOK_URL'],
		['N8N_DEFAULT_BINARY_DATA_MODE', 'database'],
		['N8N_REINSTALL_MISSING_PACKAGES', 'true'],
	])('every n8n process has %s = %p', (key, expected) => {
		expect(expected).toBeDefined();
		expect(n8nServices.map((name) => [name, setting(environmentOf(name)[key])])).toEqual(
			n8nServices.map((name) => [name, expected]),
		);
	});

	it('main: N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true (webhooks go to the processor), WEBHOOK_URL set', () => {
		const environment = environmentOf(main[0]);
		expect(environment.N8N_DISABLE_PRODUCTION_MAIN_PROCESS).toBe('true');
		expect(environment.WEBHOOK_URL).toMatch(/\S/);
	});

	it.each(n8nServices)('%s starts once PostgreSQL and Redis are healthy', (name) => {
		const dependsOn = services[name].depends_on;
		expect(Array.isArray(dependsOn)).toBe(false);
		const conditions = dependsOn as Record<string, { condition?: string }>;
		for (const dependency of [...withImage('postgres:'), ...withImage('redis:')]) {
			expect({ dependency, condition: conditions[dependency]?.condition }).toEqual({
				dependency,
				condition: 'service_healthy',
			});
		}
	});

	it.each([...withImage('postgres:'), ...withImage('redis:')])('%s has a healthcheck', (name) => {
		expect(([] as string[]).concat(services[name].healthcheck?.test ?? []).length).toBeGreaterThan(
			0,
		);
	});

	// A volume there is filled from the image once, then hides the package of every newer build.
	it.each(n8nServices)('%s mounts nothing over /home/node/.n8n', (name) => {
		const targets = (services[name].volumes ?? []).map((volume) =>
			typeof volume === 'string' ? (volume.split(':')[1] ?? volume) : (volume.target ?? ''),
		);
		expect(targets.filter((target) => target.replace(/\/+$/, '') === '/home/node/.n8n')).toEqual(
			[],
		);
	});

	it('holds no secret: every password, key and token is a ${VAR} reference without a default', () => {
		const inline = serviceNames.flatMap((name) =>
			Object.entries(environmentOf(name))
				.filter(([key]) => /PASSWORD|SECRET|TOKEN|_KEY$/.test(key))
				.filter(([, value]) => requiredVariable(value) === undefined)
				.map(([key, value]) => `${name}: ${key}=${value}`),
		);
		expect(inline).toEqual([]);
	});
});

describe('the queue-mode example: .env.example', () => {
	const defined = new Map(
		readExample('.env.example')
			.split('\n')
			.filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
			.map((line) => [line.split('=')[0], line.split('=').slice(1).join('=')] as const),
	);
	const required = [
		...new Set(
			[...readExample('docker-compose.yml').matchAll(/\$\{([A-Z_][A-Z0-9_]*)(:?\?[^}]*)?\}/g)].map(
				(match) => match[1],
			),
		),
	].sort();

	it('defines every variable docker-compose.yml requires', () => {
		expect(required.length).toBeGreaterThan(0);
		expect(required.filter((variable) => !defined.has(variable))).toEqual([]);
	});

	it('has placeholders, not secrets, and .env (the filled-in copy) is ignored by git', () => {
		const secrets = [...defined].filter(([key]) => /PASSWORD|SECRET|TOKEN|_KEY$/.test(key));
		expect(secrets.length).toBeGreaterThan(0);
		expect(secrets.filter(([, value]) => !value.startsWith('change-me'))).toEqual([]);
		expect(readExample('.gitignore').split('\n')).toContain('.env');
	});
});

describe('the queue-mode example: the way in (Caddyfile)', () => {
	const caddyfile = readExample('Caddyfile').replace(/#.*$/gm, '');
	const matchers = new Map(
		[...caddyfile.matchAll(/^\s*@(\w+)\s+path\s+(.+)$/gm)].map(
			(match) => [match[1], match[2].trim().split(/\s+/)] as const,
		),
	);
	const handles = [...caddyfile.matchAll(/handle(?:\s+@(\w+))?\s*\{\s*reverse_proxy\s+(\S+)/g)].map(
		(match) => ({ paths: match[1] ? matchers.get(match[1]) : undefined, upstream: match[2] }),
	);
	/** The service a request path reaches: the first `handle` whose path matcher takes it. */
	const serviceFor = (requestPath: string) =>
		handles
			.find(
				({ paths }) =>
					paths === undefined ||
					paths.some((pattern) =>
						pattern.endsWith('*')
							? requestPath.startsWith(pattern.slice(0, -1))
							: requestPath === pattern,
					),
			)
			?.upstream.split(':')[0];
	const proxy = serviceNames.find((name) =>
		(services[name].volumes ?? []).some((volume) => String(volume).includes('Caddyfile')),
	);

	it.each([
		['/webhook/5f0c/webhook?token=abc', webhookProcessors[0]],
		['/webhook-waiting/42', webhookProcessors[0]],
		['/form/5f0c', webhookProcessors[0]],
		// Listen for test event: only the main process has test webhooks.
		['/webhook-test/5f0c/webhook?token=abc', main[0]],
		['/rest/login', main[0]],
		['/', main[0]],
	])('sends %s to %s', (requestPath, service) => {
		expect(service).toBeDefined();
		expect(serviceFor(requestPath)).toBe(service);
	});

	it('is where WEBHOOK_URL in .env.example leads, and publishes the port it listens on', () => {
		expect(proxy).toBeDefined();
		const url = new URL(
			readExample('.env.example').match(/^WEBHOOK_URL=(.*)$/m)?.[1] ?? 'http://unset',
		);
		expect(url.hostname).toBe(proxy);
		expect(url.pathname.endsWith('/')).toBe(true);
		const listens = /^:(\d+)\s*\{/m.exec(caddyfile)?.[1];
		expect(url.port).toBe(listens);
		expect((services[proxy!].ports ?? []).map(String)).toContain(`${listens}:${listens}`);
	});
});

describe('the queue-mode example: Dockerfile', () => {
	/** Instructions with their continuation lines joined, comments left out. */
	const instructions = readExample('Dockerfile')
		.replace(/\\\n/g, ' ')
		.split('\n')
		.map((line) => line.trim())
		.filter((line) => line !== '' && !line.startsWith('#'))
		.map((line) => {
			const [keyword, ...rest] = line.split(/\s+/);
			return { keyword: keyword.toUpperCase(), text: rest.join(' ') };
		});
	const runs = instructions.filter(({ keyword }) => keyword === 'RUN');
	const install = runs.find(({ text }) => /\bnpm install\b/.test(text));
	const versionArg = instructions
		.filter(({ keyword }) => keyword === 'ARG')
		.map(({ text }) => /^(\w+)=(\S+)$/.exec(text))
		.find((match) => match !== null);

	it('is based on the n8n version the end-to-end tests run (DEFAULT_N8N_VERSION)', () => {
		expect(instructions[0]).toEqual({ keyword: 'FROM', text: `n8nio/n8n:${DEFAULT_N8N_VERSION}` });
	});

	it(`installs ${manifest.name} into /home/node/.n8n/nodes as the user node`, () => {
		expect(install?.text).toMatch(/\bmkdir -p \/home\/node\/\.n8n\/nodes\b/);
		expect(install?.text).toMatch(/\bcd \/home\/node\/\.n8n\/nodes &&/);
		expect(install?.text).toContain(` "${manifest.name}@\${${versionArg?.[1]}}"`);
		const users = instructions.slice(0, instructions.indexOf(install!));
		expect(users.filter(({ keyword }) => keyword === 'USER').pop()?.text).toBe('node');
	});

	it('pins the package at the version in package.json', () => {
		expect(versionArg?.[2]).toBe(manifest.version);
	});

	// npm would otherwise install the newest n8n-workflow beside the package, and the nodes would
	// load that copy instead of n8n's own.
	it('does not install the peer dependency n8n-workflow', () => {
		expect(install?.text).toContain('--legacy-peer-deps');
	});
});
