import { parentPort } from 'node:worker_threads';
import { encodeJpeg } from '../local/image.ts';
import { lockStructure } from './index.ts';
import type { LockReply, LockRequest } from './thread.ts';

/** Locks one answer posted by lockOnThread, then the thread ends. */
const port = parentPort;
if (!port) throw new Error('the lock worker entry must run in a worker thread');
port.once('message', (req: LockRequest) => {
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  lockStructure(buffer(req.before), buffer(req.after), { composite: true })
    .then(async ({ check, composite }) => {
      const jpeg = composite ? await encodeJpeg(composite) : null;
      const image = jpeg ? new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength) : null;
      port.postMessage({ ok: true, check, image } satisfies LockReply, image ? [image.buffer as ArrayBuffer] : []);
    })
    .catch((err: unknown) => port.postMessage({ ok: false, message: err instanceof Error ? err.message : String(err) } satisfies LockReply));
});
