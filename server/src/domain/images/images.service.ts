import type { Readable } from 'node:stream';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { imageKey, isUuid, thumbnailKey } from '../../storage/keys.ts';
import type { ObjectStorage } from '../../storage/object-storage.ts';
import { makeThumbnail, type NormalisedImage } from './image-files.ts';
import { replayed, type Idempotency } from '../idempotency.ts';
import { ImagesRepository, type ImageRow, type NewImage } from './images.repository.ts';

export type { ImageRow } from './images.repository.ts';

export const IMAGE_URL_PREFIX = '/api/images/';
export const imageUrl = (imageId: string) => `${IMAGE_URL_PREFIX}${imageId}`;
export const thumbnailUrl = (imageId: string) => `${IMAGE_URL_PREFIX}${imageId}/thumbnail`;

/** The image id of one of our image URLs (relative, or absolute on this origin); null otherwise. */
export function imageIdFromUrl(url: string, publicOrigin: string): string | null {
  const relative = url.startsWith(publicOrigin + '/') ? url.slice(publicOrigin.length) : url;
  if (!relative.startsWith(IMAGE_URL_PREFIX)) return null;
  const id = relative.slice(IMAGE_URL_PREFIX.length);
  return isUuid(id) ? id : null;
}

/**
 * Stored image files and their rows. Files are written before the row that points at them (a
 * crash leaves at worst an unreferenced file, never a row without its file) and deleted after
 * the row is gone.
 */
export class ImagesService {
  private readonly repository: ImagesRepository;

  constructor(
    private readonly db: Db,
    readonly storage: ObjectStorage,
  ) {
    this.repository = new ImagesRepository(db);
  }

  /** Writes the file (and the thumbnail when given) under keys derived from a new id; no row yet. */
  async storeFiles(image: NormalisedImage, thumbnail?: Buffer): Promise<{ id: string; storageKey: string }> {
    const id = crypto.randomUUID();
    const storageKey = imageKey(id);
    await this.storage.put(storageKey, image.jpeg, 'image/jpeg');
    if (thumbnail) await this.storage.put(thumbnailKey(id), thumbnail, 'image/webp');
    return { id, storageKey };
  }

  /** The row for files written by storeFiles, inside the caller's transaction or not. */
  insertRow(
    executor: Executor,
    values: { id: string; storageKey: string; userId: string; kind: 'original' | 'staged'; image: NormalisedImage },
  ): Promise<ImageRow> {
    return this.repository.insert(executor, this.newRow(values));
  }

  private newRow(values: { id: string; storageKey: string; userId: string; kind: 'original' | 'staged'; image: NormalisedImage }): NewImage {
    return {
      id: values.id,
      userId: values.userId,
      kind: values.kind,
      storageKey: values.storageKey,
      contentType: 'image/jpeg',
      width: values.image.width,
      height: values.image.height,
      bytes: values.image.jpeg.length,
      sha256: values.image.sha256,
    };
  }

  /**
   * The row of an upload sent with an Idempotency-Key (files written by storeFiles); undefined when
   * the key is taken already: the caller deletes its files and answers the first request's image.
   */
  insertKeyedUpload(values: { id: string; storageKey: string; userId: string; image: NormalisedImage; idempotency: Idempotency }): Promise<ImageRow | undefined> {
    return this.repository.insertKeyed({
      ...this.newRow({ ...values, kind: 'original' }),
      idempotencyKey: values.idempotency.key,
      idempotencyFingerprint: values.idempotency.fingerprint,
    });
  }

  /** The user's upload already answered for this key, if any; a 422 when it was another request. */
  async findKeyedUpload(userId: string, idempotency: Idempotency): Promise<ImageRow | undefined> {
    return replayed(await this.repository.findByIdempotencyKey(userId, idempotency.key), idempotency);
  }

  /** The image when it belongs to the user; null for a malformed id, no image, or someone else's. */
  async findOwned(userId: string, imageId: string): Promise<ImageRow | null> {
    if (!isUuid(imageId)) return null;
    return (await this.repository.findOwned(userId, imageId)) ?? null;
  }

  /**
   * findOwned, locking the row FOR SHARE until `tx` ends, for a job about to reference it: a
   * concurrent deleteUnreferenced (FOR UPDATE) either went first (null here: the image is gone)
   * or waits and then sees the new job, instead of this insert failing on the foreign key.
   */
  async findOwnedForShare(tx: Tx, userId: string, imageId: string): Promise<ImageRow | null> {
    if (!isUuid(imageId)) return null;
    return (await this.repository.findOwnedForShare(tx, userId, imageId)) ?? null;
  }

  async findById(imageId: string): Promise<ImageRow | null> {
    return (await this.repository.findById(imageId)) ?? null;
  }

  openFile(row: Pick<ImageRow, 'storageKey'>): Promise<Readable | null> {
    return this.storage.stream(row.storageKey);
  }

  readFile(row: Pick<ImageRow, 'storageKey'>): Promise<Buffer | null> {
    return this.storage.get(row.storageKey);
  }

  /** The WebP thumbnail, made from the image on first need and kept. */
  async thumbnail(row: Pick<ImageRow, 'id' | 'storageKey'>): Promise<Buffer | null> {
    const key = thumbnailKey(row.id);
    const kept = await this.storage.get(key);
    if (kept) return kept;
    const original = await this.storage.get(row.storageKey);
    if (!original) return null;
    const thumb = await makeThumbnail(original);
    await this.storage.put(key, thumb, 'image/webp');
    return thumb;
  }

  /** Deletes the files of an image whose row is gone (or was never written). */
  async deleteFiles(imageId: string): Promise<void> {
    await Promise.all([this.storage.delete(imageKey(imageId)), this.storage.delete(thumbnailKey(imageId))]);
  }

  /**
   * Deletes the rows of those images no job or listing photo references any more (inside the caller's
   * transaction); answers the ids whose files the caller deletes after commit. Each image is
   * locked FOR UPDATE first, so the check (a later statement, a fresh snapshot) sees every job
   * committed on it, and a creation holding it FOR SHARE finishes first; in id order, so two
   * deletes sharing an original cannot deadlock. Lock order everywhere: job, image, then the
   * user's row (the credit), so callers refund only after this.
   */
  async deleteUnreferenced(tx: Tx, imageIds: string[]): Promise<string[]> {
    const deleted: string[] = [];
    for (const id of [...new Set(imageIds)].sort()) {
      if (!(await this.repository.lockForDelete(tx, id))) continue;
      if (await this.repository.deleteIfUnused(tx, id)) deleted.push(id);
    }
    return deleted;
  }

  /**
   * Deletes up to `limit` images older than `ageMs` (by the database's clock, which wrote
   * created_at) that no job and no listing photo uses: uploads never staged nor kept in a listing. Rows first, then files; answers the ids.
   * The candidates are only a hint: each goes through deleteUnreferenced, so a job created on one
   * at the same time either wins (the image stays) or finds it gone (404, nothing debited).
   * No index on created_at: nearly every image is past the age, so the query reads them all
   * anyway; the jobs' indexes on both image columns answer the NOT EXISTS.
   */
  async deleteUnused(ageMs: number, limit: number): Promise<string[]> {
    const candidates = await this.repository.unusedOlderThan(ageMs, limit);
    if (candidates.length === 0) return [];
    const deleted = await this.db.transaction((tx) => this.deleteUnreferenced(tx, candidates));
    await Promise.all(deleted.map((id) => this.deleteFiles(id)));
    return deleted;
  }
}
