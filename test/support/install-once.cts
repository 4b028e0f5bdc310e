/**
 * Installs something into a shared cache folder safely when two runs start at once (`npm start`
 * in one terminal, `npm test` in another): one run takes a lock, installs into a temporary sibling
 * folder, checks it and renames it into place; the other waits for the lock and then finds the
 * finished install. A lock left by a process that died, or older than `staleAfterMs`, is broken.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface InstallOnceOptions {
	/** Fills the temporary folder; throws on failure. */
	install: (folder: string) => void;
	/** Whether a folder holds a complete install (checked before and after installing). */
	isComplete: (folder: string) => boolean;
	/** How long to wait for another run's install. */
	waitTimeoutMs?: number;
	staleAfterMs?: number;
	log?: (message: string) => void;
}

interface LockOwner {
	pid: number;
	host: string;
	startedAt: number;
}

function sleepSync(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether a process with this pid runs (on this machine). */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function readOwner(lockDir: string): LockOwner | undefined {
	try {
		return JSON.parse(fs.readFileSync(path.join(lockDir, 'owner.json'), 'utf8')) as LockOwner;
	} catch {
		return undefined;
	}
}

function isStale(lockDir: string, staleAfterMs: number): boolean {
	const owner = readOwner(lockDir);
	if (!owner) {
		// A lock without its owner file is being created right now, unless it is old.
		const age = Date.now() - fs.statSync(lockDir, { throwIfNoEntry: false })!.mtimeMs;
		return age > 10_000;
	}
	const sameHost = owner.host === os.hostname();
	return (sameHost && !isAlive(owner.pid)) || Date.now() - owner.startedAt > staleAfterMs;
}

function tryLock(lockDir: string): boolean {
	try {
		fs.mkdirSync(lockDir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
		throw error;
	}
	const owner: LockOwner = { pid: process.pid, host: os.hostname(), startedAt: Date.now() };
	fs.writeFileSync(path.join(lockDir, 'owner.json'), JSON.stringify(owner));
	return true;
}

export function installOnce(target: string, options: InstallOnceOptions): void {
	const {
		install,
		isComplete,
		waitTimeoutMs = 30 * 60_000,
		staleAfterMs = 30 * 60_000,
		log = () => {},
	} = options;
	if (isComplete(target)) return;
	fs.mkdirSync(path.dirname(target), { recursive: true });
	const lockDir = `${target}.lock`;
	const waitUntil = Date.now() + waitTimeoutMs;
	let waited = false;
	while (!tryLock(lockDir)) {
		if (fs.existsSync(lockDir) && isStale(lockDir, staleAfterMs)) {
			log(`breaking the stale lock ${lockDir}`);
			fs.rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (Date.now() > waitUntil) {
			throw new Error(`Timed out waiting for another run to finish installing into ${target}`);
		}
		if (!waited) log(`another run is installing into ${target}; waiting for it`);
		waited = true;
		sleepSync(500);
	}
	try {
		// The run that held the lock before us may have finished the install.
		if (isComplete(target)) return;
		const temporary = `${target}.tmp-${process.pid}-${Date.now()}`;
		fs.rmSync(temporary, { recursive: true, force: true });
		fs.mkdirSync(temporary, { recursive: true });
		try {
			install(temporary);
			if (!isComplete(temporary)) {
				throw new Error(`The install into ${temporary} is incomplete`);
			}
			// An incomplete install left by an older version of this script goes away first.
			if (fs.existsSync(target)) {
				const leftover = `${target}.old-${process.pid}-${Date.now()}`;
				fs.renameSync(target, leftover);
				fs.rmSync(leftover, { recursive: true, force: true });
			}
			fs.renameSync(temporary, target);
		} finally {
			fs.rmSync(temporary, { recursive: true, force: true });
		}
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}
