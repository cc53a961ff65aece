import { uploadBody } from './upload-body.ts';

export type UploadBodyMessage = { body: Blob } | { error: string };

self.onmessage = async (event: MessageEvent<File>) => {
  let message: UploadBodyMessage;
  try {
    message = { body: await uploadBody(event.data) };
  } catch (error) {
    message = { error: (error as Error).message };
  }
  self.postMessage(message);
};
