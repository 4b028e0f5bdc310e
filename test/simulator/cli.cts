// `npm run simulator -- --port 3000 --api-key <key> [--host 127.0.0.1] [--gateway evolution-v2|waha]`:
// serve a simulator until Ctrl+C.
import { DEFAULT_API_KEY, SEED, startSimulator, type Gateway } from './index.cts';

const DEFAULT_PORT = 3000;
const DEFAULT_HOST = '127.0.0.1';
const GATEWAYS: Gateway[] = ['spec', 'evolution-v2', 'waha'];

interface CliOptions {
	port: number;
	host: string;
	apiKey: string;
	gateway: Gateway;
}

const USAGE = `Usage: npm run simulator -- [--port ${DEFAULT_PORT}] [--host ${DEFAULT_HOST}] [--api-key ${DEFAULT_API_KEY}] [--gateway ${GATEWAYS.join('|')}]`;

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
	for (let index = 0; index < argv.length; index++) {
		const [flag, inlineValue] = argv[index].split(/=(.*)/s, 2);
		if (flag === '--help' || flag === '-h') {
			console.log(USAGE);
			process.exit(0);
		}
		const value = inlineValue ?? argv[++index];
		if (value === undefined) fail(`Missing value for ${flag}`);
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
				break;
			default:
				fail(`Unknown option: ${flag}`);
		}
	}
	return options;
}

async function main(): Promise<void> {
	const options = parseArguments(process.argv.slice(2));
	const simulator = await startSimulator(options);
	const connected = SEED.instances.connected;
	const playing = options.gateway === 'spec' ? '' : ` (gateway ${options.gateway})`;
	console.log(`Messaging gateway simulator listening on ${simulator.url}${playing}`);
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
