import type { RoomType, Style } from '@roomstager/contracts';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { listingPhotos, listings } from '../../db/schema.ts';

export type ListingRow = typeof listings.$inferSelect;
export type ListingPhotoRow = typeof listingPhotos.$inferSelect;

const owned = (userId: string, listingId: string) => and(eq(listings.id, listingId), eq(listings.userId, userId));

/**
 * No listing photo uses the image: the listings domain's answer for the images domain, embedded
 * in its statements beside the jobs' condition, so the unused-upload sweep keeps a listing's photos.
 */
export const noListingPhotoUsesImage = (imageId: AnyPgColumn | string): SQL =>
  sql`not exists (select 1 from ${listingPhotos} where ${eq(listingPhotos.imageId, imageId)})`;

/** Every statement on `listings` and `listing_photos`. */
export class ListingsRepository {
  constructor(private readonly db: Db) {}

  async insert(values: { userId: string; title: string; style: Style }): Promise<ListingRow> {
    const [row] = await this.db.insert(listings).values(values).returning();
    if (!row) throw new Error('Listing row was not written');
    return row;
  }

  /** The user's listings, newest first. */
  list(userId: string): Promise<ListingRow[]> {
    return this.db.select().from(listings).where(eq(listings.userId, userId)).orderBy(desc(listings.createdAt), desc(listings.id));
  }

  async findOwned(userId: string, listingId: string, executor: Executor = this.db): Promise<ListingRow | undefined> {
    const [row] = await executor.select().from(listings).where(owned(userId, listingId));
    return row;
  }

  /** The user's listing locked FOR UPDATE until `tx` ends: photo additions and stagings of one listing queue here. */
  async lockOwned(tx: Tx, userId: string, listingId: string): Promise<ListingRow | undefined> {
    const [row] = await tx.select().from(listings).where(owned(userId, listingId)).for('update');
    return row;
  }

  async update(userId: string, listingId: string, changes: { title?: string | undefined; style?: Style | undefined }): Promise<ListingRow | undefined> {
    const [row] = await this.db
      .update(listings)
      .set({
        ...(changes.title !== undefined ? { title: changes.title } : {}),
        ...(changes.style !== undefined ? { style: changes.style } : {}),
        updatedAt: sql`now()`,
      })
      .where(owned(userId, listingId))
      .returning();
    return row;
  }

  /** Marks the listing changed (its photos were). */
  async touch(tx: Tx, listingId: string): Promise<void> {
    await tx.update(listings).set({ updatedAt: sql`now()` }).where(eq(listings.id, listingId));
  }

  /** Deletes the user's listing and its photos; the images its photos used, or undefined when there was no such listing. */
  async deleteOwned(tx: Tx, userId: string, listingId: string): Promise<string[] | undefined> {
    if (!(await this.lockOwned(tx, userId, listingId))) return undefined;
    const photos = await tx.delete(listingPhotos).where(eq(listingPhotos.listingId, listingId)).returning({ imageId: listingPhotos.imageId });
    await tx.delete(listings).where(eq(listings.id, listingId));
    return photos.map((p) => p.imageId);
  }

  /** The photos of these listings, each listing's in the order they were added. */
  photos(listingIds: string[], executor: Executor = this.db): Promise<ListingPhotoRow[]> {
    if (listingIds.length === 0) return Promise.resolve([]);
    return executor
      .select()
      .from(listingPhotos)
      .where(inArray(listingPhotos.listingId, listingIds))
      .orderBy(asc(listingPhotos.listingId), asc(listingPhotos.addedAt), asc(listingPhotos.id));
  }

  async findPhoto(listingId: string, photoId: string, executor: Executor = this.db): Promise<ListingPhotoRow | undefined> {
    const [row] = await executor
      .select()
      .from(listingPhotos)
      .where(and(eq(listingPhotos.id, photoId), eq(listingPhotos.listingId, listingId)));
    return row;
  }

  async countPhotos(tx: Tx, listingId: string): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(listingPhotos).where(eq(listingPhotos.listingId, listingId));
    return row?.n ?? 0;
  }

  async insertPhoto(tx: Tx, values: { listingId: string; imageId: string; roomType: RoomType }): Promise<ListingPhotoRow> {
    const [row] = await tx.insert(listingPhotos).values(values).returning();
    if (!row) throw new Error('Listing photo row was not written');
    return row;
  }

  async updatePhotoRoomType(tx: Tx, listingId: string, photoId: string, roomType: RoomType): Promise<ListingPhotoRow | undefined> {
    const [row] = await tx
      .update(listingPhotos)
      .set({ roomType })
      .where(and(eq(listingPhotos.id, photoId), eq(listingPhotos.listingId, listingId)))
      .returning();
    return row;
  }

  async deletePhoto(tx: Tx, listingId: string, photoId: string): Promise<ListingPhotoRow | undefined> {
    const [row] = await tx
      .delete(listingPhotos)
      .where(and(eq(listingPhotos.id, photoId), eq(listingPhotos.listingId, listingId)))
      .returning();
    return row;
  }
}
