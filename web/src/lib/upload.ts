import { uploadResponseSchema, type UploadResponse } from '@roomstager/contracts';
import { apiJson } from './api-client.ts';
import type { UploadBodyMessage } from './upload-body.worker.ts';

/**
 * The upload's body, built on a worker thread. On the page, a 10 MB photo's base64 is a 13 MB
 * string that JSON.stringify and fetch then copy and encode in one go, holding the page for
 * seconds; a Blob from the worker goes to fetch as it is.
 */
function encodeUploadBody(file: File): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./upload-body.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }: MessageEvent<UploadBodyMessage>) => {
      worker.terminate();
      if ('body' in data) resolve(data.body);
      else reject(new Error(data.error));
    };
    worker.onerror = () => {
      worker.terminate();
      reject(new Error('Failed to convert file to base64'));
    };
    worker.postMessage(file);
  });
}

/** POST /api/upload of a checked photo (/generate's one, or each of a listing's). */
export async function uploadPhoto(file: File): Promise<UploadResponse> {
  return apiJson('POST', '/api/upload', uploadResponseSchema, await encodeUploadBody(file));
}
