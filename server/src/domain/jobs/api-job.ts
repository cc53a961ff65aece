import { V1_OPERATIONS, type ApiJob } from '@roomstager/contracts';
import { isUuid } from '../../storage/keys.ts';
import { BadRequestError } from '../errors.ts';
import type { JobCursor, JobView } from './jobs.repository.ts';

/** The absolute URL of an image in the public API, fetched with the same key. */
export const apiImageUrl = (origin: string, imageId: string) => origin + V1_OPERATIONS.getImage.path.replace('{id}', imageId);

/** A job as the public API (and its webhooks) show it. */
export function toApiJob(row: JobView, origin: string): ApiJob {
  return {
    id: row.id,
    status: row.status,
    style: row.style,
    roomType: row.roomType,
    imageId: row.originalImageId,
    originalImageUrl: apiImageUrl(origin, row.originalImageId),
    stagedImageUrl: row.stagedImageId ? apiImageUrl(origin, row.stagedImageId) : null,
    errorMessage: row.errorMessage,
    createdAt: row.createdAt.toISOString(),
    processingStartedAt: row.processingStartedAt?.toISOString() ?? null,
    processingCompletedAt: row.processingCompletedAt?.toISOString() ?? null,
  };
}

/** A list position as the API hands it out: opaque base64url of `<microseconds>.<id>`. */
export function encodeJobCursor(cursor: JobCursor): string {
  return Buffer.from(`${cursor.createdAtMicros}.${cursor.id}`).toString('base64url');
}

/** The position of a cursor from encodeJobCursor; a 400 for anything else. */
export function decodeJobCursor(text: string): JobCursor {
  const [createdAtMicros = '', id = ''] = Buffer.from(text, 'base64url').toString().split('.');
  if (!/^[0-9]{1,18}$/.test(createdAtMicros) || !isUuid(id)) throw new BadRequestError('Invalid cursor: pass a nextCursor from an earlier answer');
  return { createdAtMicros, id };
}
