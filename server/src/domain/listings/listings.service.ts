import {
  LISTING_PHOTOS_MAX,
  type AddListingPhotoRequest,
  type CreateListingRequest,
  type Listing,
  type ListingPhoto,
  type ListingSummary,
  type RoomType,
  type UpdateListingRequest,
} from '@roomstager/contracts';
import type { Db } from '../../db/client.ts';
import { isUuid } from '../../storage/keys.ts';
import { NotFoundError } from '../errors.ts';
import { imageIdFromUrl, imageUrl, thumbnailUrl, type ImagesService } from '../images/images.service.ts';
import { ListingFullError } from './errors.ts';
import { ListingsRepository, type ListingPhotoRow, type ListingRow } from './listings.repository.ts';

const listingNotFound = () => new NotFoundError('Listing not found');
const photoNotFound = () => new NotFoundError('Photo not found');

function toPhoto(row: ListingPhotoRow): ListingPhoto {
  return { id: row.id, imageUrl: imageUrl(row.imageId), roomType: row.roomType, createdAt: row.addedAt.toISOString(), job: null };
}

/**
 * Listings: a user's properties, each a title, a style and up to LISTING_PHOTOS_MAX photos.
 * Every call is scoped by the user: another user's listing or photo id is a 404 and changes
 * nothing.
 */
export class ListingsService {
  private readonly repository: ListingsRepository;

  constructor(
    private readonly db: Db,
    private readonly images: ImagesService,
    private readonly publicOrigin: string,
  ) {
    this.repository = new ListingsRepository(db);
  }

  async create(userId: string, request: CreateListingRequest): Promise<{ id: string }> {
    const row = await this.repository.insert({ userId, title: request.title, style: request.style });
    return { id: row.id };
  }

  /** The user's listings, newest first, each with its photo counts and cover. */
  async list(userId: string): Promise<ListingSummary[]> {
    const rows = await this.repository.list(userId);
    const photos = await this.repository.photos(rows.map((r) => r.id));
    return rows.map((row) => {
      const own = photos.filter((p) => p.listingId === row.id);
      const first = own[0];
      return {
        id: row.id,
        title: row.title,
        style: row.style,
        createdAt: row.createdAt.toISOString(),
        photoCount: own.length,
        stagedCount: 0,
        coverUrl: first ? thumbnailUrl(first.imageId) : null,
      };
    });
  }

  /** The user's listing with its photos in the order they were added. */
  async get(userId: string, listingId: string): Promise<Listing> {
    const row = await this.findOwned(userId, listingId);
    return this.toListing(row, await this.repository.photos([row.id]));
  }

  private toListing(row: ListingRow, photos: ListingPhotoRow[]): Listing {
    return { id: row.id, title: row.title, style: row.style, createdAt: row.createdAt.toISOString(), photos: photos.map(toPhoto) };
  }

  async update(userId: string, listingId: string, request: UpdateListingRequest): Promise<Listing> {
    const row = isUuid(listingId) ? await this.repository.update(userId, listingId, request) : undefined;
    if (!row) throw listingNotFound();
    return this.toListing(row, await this.repository.photos([row.id]));
  }

  /**
   * Deletes the listing and its photos, and the uploads nothing else uses (their files after the
   * commit). The photos' stagings stay in the gallery: they were paid for.
   */
  async delete(userId: string, listingId: string): Promise<void> {
    if (!isUuid(listingId)) throw listingNotFound();
    const deleted = await this.db.transaction(async (tx) => {
      const imageIds = await this.repository.deleteOwned(tx, userId, listingId);
      if (!imageIds) throw listingNotFound();
      return this.images.deleteUnreferenced(tx, imageIds);
    });
    await Promise.all(deleted.map((id) => this.images.deleteFiles(id)));
  }

  /**
   * Adds one of the user's uploads as a photo, up to LISTING_PHOTOS_MAX. The listing is locked
   * so concurrent additions count right, and the image FOR SHARE so that a concurrent deletion of
   * it (the sweep, a job's deletion) either went first (404) or sees the photo and keeps it.
   */
  async addPhoto(userId: string, listingId: string, request: AddListingPhotoRequest & { roomType: RoomType }): Promise<{ id: string }> {
    if (!isUuid(listingId)) throw listingNotFound();
    const imageId = imageIdFromUrl(request.imageUrl, this.publicOrigin);
    return this.db.transaction(async (tx) => {
      const listing = await this.repository.lockOwned(tx, userId, listingId);
      if (!listing) throw listingNotFound();
      const image = imageId ? await this.images.findOwnedForShare(tx, userId, imageId) : null;
      if (!image) throw new NotFoundError('Image not found');
      if ((await this.repository.countPhotos(tx, listing.id)) >= LISTING_PHOTOS_MAX) throw new ListingFullError();
      const photo = await this.repository.insertPhoto(tx, { listingId: listing.id, imageId: image.id, roomType: request.roomType });
      await this.repository.touch(tx, listing.id);
      return { id: photo.id };
    });
  }

  /** Changes a photo's room type; answers the listing. */
  async updatePhoto(userId: string, listingId: string, photoId: string, roomType: RoomType): Promise<Listing> {
    if (!isUuid(listingId) || !isUuid(photoId)) throw photoNotFound();
    await this.db.transaction(async (tx) => {
      const listing = await this.repository.lockOwned(tx, userId, listingId);
      if (!listing) throw listingNotFound();
      if (!(await this.repository.updatePhotoRoomType(tx, listing.id, photoId, roomType))) throw photoNotFound();
      await this.repository.touch(tx, listing.id);
    });
    return this.get(userId, listingId);
  }

  /** Removes the photo, and its upload when nothing else uses it; its stagings stay in the gallery. */
  async deletePhoto(userId: string, listingId: string, photoId: string): Promise<void> {
    if (!isUuid(listingId) || !isUuid(photoId)) throw photoNotFound();
    const deleted = await this.db.transaction(async (tx) => {
      const listing = await this.repository.lockOwned(tx, userId, listingId);
      if (!listing) throw listingNotFound();
      const photo = await this.repository.deletePhoto(tx, listing.id, photoId);
      if (!photo) throw photoNotFound();
      await this.repository.touch(tx, listing.id);
      return this.images.deleteUnreferenced(tx, [photo.imageId]);
    });
    await Promise.all(deleted.map((id) => this.images.deleteFiles(id)));
  }

  private async findOwned(userId: string, listingId: string): Promise<ListingRow> {
    const row = isUuid(listingId) ? await this.repository.findOwned(userId, listingId) : undefined;
    if (!row) throw listingNotFound();
    return row;
  }
}
