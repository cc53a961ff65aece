import { parentPort } from 'node:worker_threads';
import { defaultHelper } from './helper.ts';
import { transferableCopy } from './image.ts';
import { stageToJpegs } from './pipeline.ts';
import { failureOf, type WorkerReply, type WorkerRequest } from './thread.ts';

/** Runs staging jobs posted by ThreadedLocalEngine, one at a time. */
const port = parentPort;
if (!port) throw new Error('worker-entry must run in a worker thread');
port.on('message', (job: WorkerRequest) => {
  const image = Buffer.from(job.image.buffer, job.image.byteOffset, job.image.byteLength);
  stageToJpegs(image, job.style, job.roomType, new AbortController().signal, job.options).then(
    (jpegs) => {
      const images = jpegs.map(transferableCopy);
      port.postMessage({ id: job.id, ok: true, images } satisfies WorkerReply, images.map((i) => i.buffer as ArrayBuffer));
    },
    (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      port.postMessage({ id: job.id, ok: false, failure: failureOf(err), message } satisfies WorkerReply);
    },
  );
});
// The render helper boots beside this thread rather than with the first job.
void defaultHelper()
  ?.ready()
  .catch(() => false);
port.postMessage({ ready: true });
