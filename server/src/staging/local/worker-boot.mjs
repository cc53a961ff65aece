// Worker bootstrap: worker threads do not inherit tsx's loader, so load the TypeScript entry
// through tsx's API.
import { workerData } from 'node:worker_threads';

const { tsImport } = await import('tsx/esm/api');
await tsImport(workerData.entry, import.meta.url);
