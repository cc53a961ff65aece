import type { Readable } from 'node:stream';

/**
 * Where image files live: local disk or an S3-compatible store.
 * Keys come from storage/keys.ts only (derived from ids, never from user input).
 */
export interface ObjectStorage {
  /** What backs it, for the start banner. */
  readonly description: string;
  /** Writes the whole object; a reader never sees a partial file. Overwrites an existing key. */
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The whole object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** A stream of the object, or null when there is none. */
  stream(key: string): Promise<Readable | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** A key that storage/keys.ts could have produced: lowercase ids and fixed suffixes, no traversal. */
const SAFE_KEY = /^[a-z0-9]+(?:[/_.-][a-z0-9]+)*$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.length > 200) throw new Error(`Refusing an unsafe storage key: ${JSON.stringify(key)}`);
}
