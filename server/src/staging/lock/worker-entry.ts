import { parentPort } from 'node:worker_threads';
import { transferableCopy } from '../local/image.ts';
import { encodeComposite, lockStructure } from './index.ts';
import type { LockReply, LockRequest } from './thread.ts';

/** Locks the answers posted by lockOnThread, one at a time. */
const port = parentPort;
if (!port) throw new Error('the lock worker entry must run in a worker thread');
const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
port.on('message', (req: LockRequest) => {
  lockStructure(buffer(req.before), buffer(req.after), { composite: true })
    .then(async ({ check, composite }) => {
      const jpeg = composite ? await encodeComposite(composite) : null;
      const image = jpeg ? transferableCopy(jpeg) : null;
      port.postMessage({ id: req.id, ok: true, check, image } satisfies LockReply, image ? [image.buffer as ArrayBuffer] : []);
    })
    .catch((err: unknown) => port.postMessage({ id: req.id, ok: false, message: err instanceof Error ? err.message : String(err) } satisfies LockReply));
});
