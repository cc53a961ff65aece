import { createHash } from 'node:crypto';
import { MAX_UPLOAD_BYTES, type UploadRequest, type UploadResponse } from '@roomstager/contracts';
import { BadRequestError } from '../errors.ts';
import type { Db } from '../../db/client.ts';
import { idempotencyOf } from '../idempotency.ts';
import { UploadRejectedError } from './errors.ts';
import { decodeBase64Image, MESSAGES, normaliseUpload } from './image-files.ts';
import { imageUrl, type ImagesService } from './images.service.ts';
import { Semaphore } from './semaphore.ts';

/** A browser's File.name never holds a path: a name that does is refused (it would never be used as one anyway). */
// eslint-disable-next-line no-control-regex
const PATH_LIKE_NAME = /[/\\\u0000-\u001f\u007f]|^\.{1,2}$/;

/** An uploaded file's bytes and the name it came with (a label only). */
export interface UploadedFile {
  bytes: Buffer;
  filename: string;
}

/**
 * At most two uploads decode at once (each can hold ~160 MB of pixels) and eight more wait; one
 * account decodes one at a time with at most three in flight, so it never holds both slots.
 */
const DECODE_LIMITS = { limit: 2, queueLimit: 8, perKey: 1, perKeyQueued: 3 } as const;

/**
 * `POST /api/upload` and `POST /api/v1/images`: the base64 is checked before decoding, the bytes by content (never by the
 * file name, which is only a label and is not stored), the image normalised to a metadata-free,
 * auto-oriented JPEG, stored under a key derived from a new id, then its row inserted.
 * Nothing is stored for a rejected upload.
 */
export class UploadsService {
  private readonly decoding = new Semaphore(DECODE_LIMITS);

  constructor(
    private readonly db: Db,
    private readonly images: ImagesService,
  ) {}

  async upload(userId: string, request: UploadRequest): Promise<UploadResponse> {
    return { imageUrl: imageUrl(await this.store(userId, { bytes: decodeBase64Image(request.imageData), filename: request.filename }, null)) };
  }

  /**
   * Stores an uploaded file (decoded from JSON's base64 or read from a multipart form); answers
   * its image id. With an Idempotency-Key (the API's uploads), a replay of the same file and name
   * answers the first image (looked up before decoding, and again when a concurrent replay took the
   * key first, whose files this one then deletes); another file or name with the key is a 422.
   */
  async store(userId: string, file: UploadedFile, idempotencyKey: string | null): Promise<string> {
    const { bytes, filename } = file;
    if (PATH_LIKE_NAME.test(filename)) throw new BadRequestError('Invalid file name: it must be a plain name, not a path');
    if (bytes.length > MAX_UPLOAD_BYTES) throw new UploadRejectedError('FILE_TOO_LARGE', MESSAGES.tooLarge);
    const idempotency = idempotencyOf(idempotencyKey, ['upload', createHash('sha256').update(bytes).digest('hex'), filename]);
    const earlier = idempotency ? await this.images.findKeyedUpload(userId, idempotency) : undefined;
    if (earlier) return earlier.id;
    const image = await this.decoding.run(userId, () => normaliseUpload(bytes));
    const { id, storageKey } = await this.images.storeFiles(image);
    let answer: string | undefined;
    try {
      if (idempotency) {
        answer = (await this.images.insertKeyedUpload({ id, storageKey, userId, image, idempotency }))?.id;
        answer ??= (await this.images.findKeyedUpload(userId, idempotency))?.id;
        if (!answer) throw new Error('Image row was not written');
      } else {
        answer = (await this.images.insertRow(this.db, { id, storageKey, userId, kind: 'original', image })).id;
      }
    } finally {
      if (answer !== id) await this.images.deleteFiles(id).catch(() => undefined);
    }
    return answer;
  }
}
