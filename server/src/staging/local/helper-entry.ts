import { parentPort } from 'node:worker_threads';
import type { HelpRequest } from './helper.ts';
import { takeShare } from './pipeline.ts';

/** Takes a share of each staging RenderHelper posts, one staging at a time (helper.ts). */
const port = parentPort;
if (!port) throw new Error('helper-entry must run in a worker thread');
port.on('message', (request: HelpRequest) => {
  try {
    takeShare(request);
  } catch {
    // No plan (the staging's thread meets the same error and reports it): it does everything.
  }
});
port.postMessage({ ready: true });
