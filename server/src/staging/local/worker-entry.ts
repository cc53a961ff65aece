import { parentPort } from 'node:worker_threads';
import { transferableCopy } from './image.ts';
import { stageToJpeg } from './pipeline.ts';
import { failureOf, type WorkerReply, type WorkerRequest } from './thread.ts';

/** Runs staging jobs posted by ThreadedLocalEngine, one at a time. */
const port = parentPort;
if (!port) throw new Error('worker-entry must run in a worker thread');
port.on('message', (job: WorkerRequest) => {
  stageToJpeg(Buffer.from(job.image.buffer, job.image.byteOffset, job.image.byteLength), job.style, job.roomType, new AbortController().signal).then(
    (jpeg) => {
      const image = transferableCopy(jpeg);
      port.postMessage({ id: job.id, ok: true, image } satisfies WorkerReply, [image.buffer as ArrayBuffer]);
    },
    (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      port.postMessage({ id: job.id, ok: false, failure: failureOf(err), message } satisfies WorkerReply);
    },
  );
});
port.postMessage({ ready: true });
