import { and, eq, lt, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { images } from '../../db/schema.ts';
import { noJobUsesImage } from '../jobs/jobs.repository.ts';
import { noListingPhotoUsesImage } from '../listings/listings.repository.ts';

export type ImageRow = typeof images.$inferSelect;

/** What a new row says about its file. */
export type NewImage = Pick<typeof images.$inferInsert, 'id' | 'userId' | 'kind' | 'storageKey' | 'contentType' | 'width' | 'height' | 'bytes' | 'sha256'>;

const owned = (userId: string, imageId: string) => and(eq(images.id, imageId), eq(images.userId, userId));

/** Nothing uses the image: no job (the jobs domain's condition) and no listing photo (the listings domain's). */
const unused = (imageId: AnyPgColumn | string) => and(noJobUsesImage(imageId), noListingPhotoUsesImage(imageId));

/**
 * Every statement on `images`. Whether a job or a listing photo uses an image is its owner's
 * condition (`noJobUsesImage`, `noListingPhotoUsesImage`), embedded so that it is judged in the
 * same statement as the rows it filters.
 */
export class ImagesRepository {
  constructor(private readonly db: Db) {}

  async insert(executor: Executor, values: NewImage): Promise<ImageRow> {
    const [row] = await executor.insert(images).values(values).returning();
    if (!row) throw new Error('Image row was not written');
    return row;
  }

  /** insert() of an upload with an Idempotency-Key; undefined when the user's key is taken (the first request's row stays). */
  async insertKeyed(values: NewImage & { idempotencyKey: string; idempotencyFingerprint: string }): Promise<ImageRow | undefined> {
    const [row] = await this.db
      .insert(images)
      .values(values)
      .onConflictDoNothing({ target: [images.userId, images.idempotencyKey], where: sql`${images.idempotencyKey} is not null` })
      .returning();
    return row;
  }

  async findByIdempotencyKey(userId: string, key: string): Promise<ImageRow | undefined> {
    const [row] = await this.db
      .select()
      .from(images)
      .where(and(eq(images.userId, userId), eq(images.idempotencyKey, key)));
    return row;
  }

  async findById(imageId: string): Promise<ImageRow | undefined> {
    const [row] = await this.db.select().from(images).where(eq(images.id, imageId));
    return row;
  }

  async findOwned(userId: string, imageId: string): Promise<ImageRow | undefined> {
    const [row] = await this.db.select().from(images).where(owned(userId, imageId));
    return row;
  }

  /** The user's image locked FOR SHARE until `tx` ends. */
  async findOwnedForShare(tx: Tx, userId: string, imageId: string): Promise<ImageRow | undefined> {
    const [row] = await tx.select().from(images).where(owned(userId, imageId)).for('share');
    return row;
  }

  /** Locks the image FOR UPDATE until `tx` ends; false when there is no such image. */
  async lockForDelete(tx: Tx, imageId: string): Promise<boolean> {
    const [locked] = await tx.select({ id: images.id }).from(images).where(eq(images.id, imageId)).for('update');
    return locked !== undefined;
  }

  /** Deletes the image's row unless a job or a listing photo uses it; true when it was deleted. */
  async deleteIfUnused(tx: Tx, imageId: string): Promise<boolean> {
    const [row] = await tx
      .delete(images)
      .where(and(eq(images.id, imageId), unused(imageId)))
      .returning({ id: images.id });
    return row !== undefined;
  }

  /** Up to `limit` ids of images older than `ageMs` (by the database's clock) that nothing uses. */
  async unusedOlderThan(ageMs: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: images.id })
      .from(images)
      .where(and(lt(images.createdAt, sql`now() - ${ageMs} * interval '1 millisecond'`), unused(images.id)))
      .limit(limit);
    return rows.map((r) => r.id);
  }
}
