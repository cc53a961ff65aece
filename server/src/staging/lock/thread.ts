import { Worker } from 'node:worker_threads';
import type { StructureCheck } from './verdict.ts';

export interface LockRequest {
  before: Uint8Array;
  after: Uint8Array;
}

export type LockReply = { ok: true; check: StructureCheck; image: Uint8Array | null } | { ok: false; message: string };

const BOOT = new URL('../local/worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./worker-entry.ts', import.meta.url);

/**
 * The lock (check and full-resolution composite, seconds of CPU at 12 MP) on a thread of its own,
 * so the server's event loop stays free while a remote staging is locked. A thread per answer:
 * its start (~0.3 s) is small beside a provider's 10-30 s, and an abort simply terminates it.
 */
export function lockOnThread(before: Buffer, after: Buffer, signal: AbortSignal): Promise<{ check: StructureCheck; image: Buffer }> {
  signal.throwIfAborted();
  const worker = new Worker(BOOT, { workerData: { entry: ENTRY.href } });
  const onAbortTerminate = () => void worker.terminate();
  signal.addEventListener('abort', onAbortTerminate, { once: true });
  return new Promise<{ check: StructureCheck; image: Buffer }>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    worker.once('message', (reply: LockReply) => {
      if (!reply.ok) return reject(new Error(`structure lock failed: ${reply.message}`));
      if (!reply.image) return reject(new Error('structure lock made no composite'));
      resolve({ check: reply.check, image: Buffer.from(reply.image.buffer, reply.image.byteOffset, reply.image.byteLength) });
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`structure lock thread exited (${code})`)));
    worker.postMessage({ before: new Uint8Array(before), after: new Uint8Array(after) } satisfies LockRequest);
  }).finally(() => {
    signal.removeEventListener('abort', onAbortTerminate);
    void worker.terminate();
  });
}
