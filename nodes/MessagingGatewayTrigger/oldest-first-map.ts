/**
 * A map that gives up its oldest entries cheaply. A plain Map keeps insertion order, but V8 leaves
 * a hole for every deleted entry until the table is rebuilt, and reading the first key walks over
 * all of them: a memory that drops its oldest entry on every delivery paid microseconds for that.
 * Here the order is a queue beside the map; an entry deleted or set again leaves a stale slot in
 * the queue, skipped when it comes to the front and cleared out when stale slots pile up.
 */
interface Slot<V> {
	key: string;
	value: V;
}

/** Stale slots tolerated before the queue is rebuilt, beyond twice the live entries. */
const STALE_SLACK = 1024;

export class OldestFirstMap<V> {
	private readonly slots = new Map<string, Slot<V>>();
	private queue: Array<Slot<V>> = [];
	private head = 0;

	get size(): number {
		return this.slots.size;
	}

	get(key: string): V | undefined {
		return this.slots.get(key)?.value;
	}

	has(key: string): boolean {
		return this.slots.has(key);
	}

	/** Sets the value; a key set again becomes the newest. */
	set(key: string, value: V): void {
		const slot = { key, value };
		this.slots.set(key, slot);
		this.queue.push(slot);
		if (this.queue.length - this.head > 2 * this.slots.size + STALE_SLACK) {
			this.queue = this.queue.slice(this.head).filter((each) => this.slots.get(each.key) === each);
			this.head = 0;
		}
	}

	delete(key: string): boolean {
		return this.slots.delete(key);
	}

	/** The oldest entry, or undefined when empty. */
	oldest(): [key: string, value: V] | undefined {
		while (this.head < this.queue.length) {
			const slot = this.queue[this.head];
			if (this.slots.get(slot.key) === slot) return [slot.key, slot.value];
			this.head++;
		}
		return undefined;
	}

	/** Deletes the oldest entry (see oldest()). */
	deleteOldest(): void {
		const oldest = this.oldest();
		if (!oldest) return;
		this.slots.delete(oldest[0]);
		this.head++;
		if (this.head > STALE_SLACK && this.head * 2 > this.queue.length) {
			this.queue = this.queue.slice(this.head);
			this.head = 0;
		}
	}
}
