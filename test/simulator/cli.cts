// `npm run simulator -- --port 3000 --api-key <key> [--host 127.0.0.1] [--gateway evolution-v2|waha]
// [--evolution-version 2.4.0] [--unlicensed] [--no-number-cache] [--waha-engine GOWS] [--no-waha-store]`: serve a
// simulator until Ctrl+C.
import {
	DEFAULT_API_KEY,
	SEED,
	startSimulator,
	type EvolutionVersion,
	type Gateway,
	type SimulatorOptions,
	type WahaEngine,
} from './index.cts';

const DEFAULT_PORT = 3000;
const DEFAULT_HOST = '127.0.0.1';
const GATEWAYS: Gateway[] = ['spec', 'evolution-v2', 'waha'];
const EVOLUTION_VERSIONS: EvolutionVersion[] = ['2.3.0', '2.3.6', '2.3.7', '2.4.0'];
const WAHA_ENGINES: WahaEngine[] = ['NOWEB', 'GOWS', 'WEBJS'];
/** Flags that take no value. */
const SWITCHES = ['--unlicensed', '--no-number-cache', '--no-waha-store'];

type CliOptions = Required<Pick<SimulatorOptions, 'port' | 'host' | 'apiKey' | 'gateway'>> &
	SimulatorOptions;

const USAGE = [
	`Usage: npm run simulator -- [--port ${DEFAULT_PORT}] [--host ${DEFAULT_HOST}] [--api-key ${DEFAULT_API_KEY}] [--gateway ${GATEWAYS.join('|')}]`,
	`  evolution-v2: [--evolution-version ${EVOLUTION_VERSIONS.join('|')}] (default 2.3.6) [--unlicensed] (2.4.0: every business route answers 503 until activated)`,
	`                [--no-number-cache] (DATABASE_SAVE_IS_ON_WHATSAPP=false: whatsappNumbers never reads or writes its number cache)`,
	`  waha:         [--waha-engine ${WAHA_ENGINES.join('|')}] (default NOWEB) [--no-waha-store] (NOWEB without its store: the LID routes answer 400)`,
].join('\n');

function fail(message: string): never {
	console.error(`${message}\n${USAGE}`);
	process.exit(2);
}

function parseArguments(argv: string[]): CliOptions {
	const options: CliOptions = {
		port: DEFAULT_PORT,
		host: DEFAULT_HOST,
		apiKey: DEFAULT_API_KEY,
		gateway: 'spec',
	};
	let gatewayGiven = false;
	for (let index = 0; index < argv.length; index++) {
		const [flag, inlineValue] = argv[index].split(/=(.*)/s, 2);
		if (flag === '--help' || flag === '-h') {
			console.log(USAGE);
			process.exit(0);
		}
		if (flag === '--unlicensed') {
			options.licensed = false;
			continue;
		}
		if (flag === '--no-number-cache') {
			options.evolutionNumberCache = false;
			continue;
		}
		if (flag === '--no-waha-store') {
			options.wahaStore = false;
			continue;
		}
		const value = inlineValue ?? argv[++index];
		if (value === undefined || SWITCHES.includes(value)) fail(`Missing value for ${flag}`);
		switch (flag) {
			case '--port': {
				const port = Number(value);
				if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`Invalid port: ${value}`);
				options.port = port;
				break;
			}
			case '--host':
				options.host = value;
				break;
			case '--api-key':
				if (value.trim() === '') fail('The API key must not be empty');
				options.apiKey = value;
				break;
			case '--gateway':
				if (!GATEWAYS.includes(value as Gateway)) fail(`Unknown gateway: ${value}`);
				options.gateway = value as Gateway;
				gatewayGiven = true;
				break;
			case '--evolution-version':
				if (!EVOLUTION_VERSIONS.includes(value as EvolutionVersion))
					fail(`Unknown Evolution API version: ${value}`);
				options.evolutionVersion = value as EvolutionVersion;
				break;
			case '--waha-engine':
				if (!WAHA_ENGINES.includes(value.toUpperCase() as WahaEngine))
					fail(`Unknown WAHA engine: ${value}`);
				options.wahaEngine = value.toUpperCase() as WahaEngine;
				break;
			default:
				fail(`Unknown option: ${flag}`);
		}
	}
	// A release or engine names its gateway: `--waha-engine GOWS` alone plays WAHA.
	if (
		!gatewayGiven &&
		(options.evolutionVersion ||
			options.licensed === false ||
			options.evolutionNumberCache === false)
	)
		options.gateway = 'evolution-v2';
	if (!gatewayGiven && (options.wahaEngine || options.wahaStore === false))
		options.gateway = 'waha';
	return options;
}

/** What the banner says is played: the gateway, and the release or engine when one was chosen. */
function playing(options: CliOptions): string {
	if (options.gateway === 'spec') return '';
	const details = [
		options.evolutionVersion && `Evolution API ${options.evolutionVersion}`,
		options.licensed === false && 'not licensed',
		options.evolutionNumberCache === false && 'no number cache',
		options.wahaEngine && `engine ${options.wahaEngine}`,
		options.wahaStore === false && 'no NOWEB store',
	].filter(Boolean);
	return ` (gateway ${options.gateway}${details.length ? `, ${details.join(', ')}` : ''})`;
}

async function main(): Promise<void> {
	const options = parseArguments(process.argv.slice(2));
	let simulator;
	try {
		simulator = await startSimulator(options);
	} catch (error) {
		// Options that do not fit together (a release for another gateway...) are a usage error.
		if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw error;
		fail((error as Error).message);
	}
	const connected = SEED.instances.connected;
	console.log(`Messaging gateway simulator listening on ${simulator.url}${playing(options)}`);
	const keyHeader = options.gateway === 'waha' ? 'X-Api-Key' : 'apikey';
	console.log(`API key (header "${keyHeader}"): ${simulator.apiKey}`);
	console.log(
		`Instances: ${connected.name} (open, token ${connected.token}), ${SEED.instances.pairing.name} (waiting for QR)`,
	);
	console.log(`Control API: ${simulator.url}/__sim (seed data: ${simulator.url}/__sim/seed)`);
	const tryPath = options.gateway === 'waha' ? '/api/sessions' : '/instance/fetchInstances';
	console.log(`Try: curl -H '${keyHeader}: ${simulator.apiKey}' ${simulator.url}${tryPath}`);

	let stopping = false;
	const shutdown = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal} received, stopping the simulator...`);
		simulator.stop().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => shutdown('SIGINT'));
	process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
	const code = (error as NodeJS.ErrnoException).code;
	if (code === 'EADDRINUSE') fail(`The port is already in use; pick another with --port`);
	console.error(error);
	process.exit(1);
});
