import type { Readable } from 'node:stream';
import {
  LISTING_PHOTOS_MAX,
  listingFileStem,
  STYLE_LABELS,
  type AddListingPhotoRequest,
  type CreateListingRequest,
  type Job,
  type Listing,
  type ListingJob,
  type ListingPhoto,
  type ListingSummary,
  type RoomType,
  type StageListingResponse,
  type UpdateListingRequest,
} from '@roomstager/contracts';
import type { Db, Tx } from '../../db/client.ts';
import { isUuid } from '../../storage/keys.ts';
import { NotFoundError } from '../errors.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import { imageIdFromUrl, imageUrl, thumbnailUrl, type ImagesService } from '../images/images.service.ts';
import type { JobOptions, JobsService, ListingStaging } from '../jobs/jobs.service.ts';
import { ListingFullError, ListingNotStagedError } from './errors.ts';
import { zipStream, type ZipEntry } from './zip.ts';
import { ListingsRepository, type ListingPhotoRow, type ListingRow } from './listings.repository.ts';

const listingNotFound = () => new NotFoundError('Listing not found');
const photoNotFound = () => new NotFoundError('Photo not found');

/** A photo's newest staging, as its listing shows it. */
function toListingJob(job: Job): ListingJob {
  return {
    id: job.id,
    status: job.status,
    style: job.style,
    variations: job.variations,
    chosenVariationId: job.chosenVariationId,
    moreVariations: job.moreVariations,
    stagedImageUrl: job.stagedImageUrl,
    thumbnailUrl: job.thumbnailUrl,
    errorMessage: job.errorMessage,
    creditsUsed: job.creditsUsed,
  };
}

function toPhoto(row: ListingPhotoRow, job: Job | undefined): ListingPhoto {
  return { id: row.id, imageUrl: imageUrl(row.imageId), roomType: row.roomType, createdAt: row.addedAt.toISOString(), job: job ? toListingJob(job) : null };
}

/**
 * The title as a file name: letters and digits (accents dropped), words joined by hyphens, at most
 * 80 characters; "listing" when nothing is left.
 */
export function listingFileName(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  return words.join('-').slice(0, 80).replace(/-+$/, '') || 'listing';
}

/** A listing's ZIP: its file name and its bytes, streamed. */
export interface ListingArchive {
  fileName: string;
  stream: Readable;
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
    private readonly jobs: JobsService,
    private readonly credits: CreditsService,
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
    const latest = await this.jobs.latestForPhotos(photos.map((p) => p.id));
    return rows.map((row) => {
      const own = photos.filter((p) => p.listingId === row.id);
      const first = own[0];
      return {
        id: row.id,
        title: row.title,
        style: row.style,
        createdAt: row.createdAt.toISOString(),
        photoCount: own.length,
        stagedCount: own.filter((p) => latest.get(p.id)?.status === 'completed').length,
        // A job's thumbnail is its result's once there is one, else its original's: the photo's.
        coverUrl: first ? (latest.get(first.id)?.thumbnailUrl ?? thumbnailUrl(first.imageId)) : null,
      };
    });
  }

  /** The user's listing with its photos in the order they were added, each with its newest staging. */
  async get(userId: string, listingId: string): Promise<Listing> {
    return this.withPhotos(await this.findOwned(userId, listingId));
  }

  private async withPhotos(row: ListingRow): Promise<Listing> {
    const photos = await this.repository.photos([row.id]);
    const latest = await this.jobs.latestForPhotos(photos.map((p) => p.id));
    return { id: row.id, title: row.title, style: row.style, createdAt: row.createdAt.toISOString(), photos: photos.map((p) => toPhoto(p, latest.get(p.id))) };
  }

  async update(userId: string, listingId: string, request: UpdateListingRequest): Promise<Listing> {
    const row = isUuid(listingId) ? await this.repository.update(userId, listingId, request) : undefined;
    if (!row) throw listingNotFound();
    return this.withPhotos(row);
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

  /**
   * Stages every photo that has no pending, processing or completed staging in the listing's
   * style, in one transaction under the listing's lock: concurrent calls debit once.
   */
  async stage(userId: string, listingId: string, options: JobOptions = {}): Promise<StageListingResponse> {
    if (!isUuid(listingId)) throw listingNotFound();
    return this.staging(userId, listingId, async (tx, listing) => {
      const photos = await this.repository.photos([listing.id], tx);
      return this.jobs.stageListingPhotos(tx, userId, listing, photos, options);
    });
  }

  /** Stages one photo again in the listing's style, one credit. */
  async stagePhoto(userId: string, listingId: string, photoId: string, options: JobOptions = {}): Promise<StageListingResponse> {
    if (!isUuid(listingId) || !isUuid(photoId)) throw photoNotFound();
    return this.staging(userId, listingId, async (tx, listing) => {
      const photo = await this.repository.findPhoto(listing.id, photoId, tx);
      if (!photo) throw photoNotFound();
      return this.jobs.restageListingPhoto(tx, userId, listing, photo, options);
    });
  }

  /** Runs a staging of the user's listing under its row lock, wakes the worker after the commit, and answers with the balance left. */
  private async staging(userId: string, listingId: string, stage: (tx: Tx, listing: ListingRow) => Promise<ListingStaging>): Promise<StageListingResponse> {
    const staged = await this.db.transaction(async (tx) => {
      const listing = await this.repository.lockOwned(tx, userId, listingId);
      if (!listing) throw listingNotFound();
      return stage(tx, listing);
    });
    if (staged.jobIds.length > 0) this.jobs.notifyQueued();
    return { ...staged, remainingCredits: await this.credits.balance(userId) };
  }

  /**
   * The listing as one ZIP, in a folder named after its title: for each photo with a completed
   * staging, the chosen staged JPEG and the original, `<room type>-<nn>-staged.jpg` and
   * `-original.jpg` (numbered per room type in photo order), and `virtually-staged.txt` saying
   * which files are virtually staged, in which style and when. 409 while nothing is staged.
   */
  async download(userId: string, listingId: string, now = new Date()): Promise<ListingArchive> {
    const listing = await this.findOwned(userId, listingId);
    const photos = await this.repository.photos([listing.id]);
    const stagings = await this.jobs.completedForPhotos(photos.map((p) => p.id));
    const folder = listingFileName(listing.title);
    const numbers = new Map<RoomType, number>();
    const entries: ZipEntry[] = [];
    const staged: string[] = [];
    for (const photo of photos) {
      const job = stagings.get(photo.id);
      if (!job) continue;
      const number = (numbers.get(photo.roomType) ?? 0) + 1;
      numbers.set(photo.roomType, number);
      const stem = listingFileStem(photo.roomType, number);
      const [stagedImage, originalImage] = await Promise.all([this.images.findById(job.stagedImageId), this.images.findById(job.originalImageId)]);
      if (!stagedImage || !originalImage) continue;
      const read = (image: typeof stagedImage) => async () => {
        const bytes = await this.images.readFile(image);
        if (!bytes) throw new Error(`The file of image ${image.id} is missing`);
        return bytes;
      };
      entries.push({ name: `${folder}/${stem}-staged.jpg`, read: read(stagedImage) }, { name: `${folder}/${stem}-original.jpg`, read: read(originalImage) });
      const day = (job.processingCompletedAt ?? job.createdAt).toISOString().slice(0, 10);
      staged.push(`${stem}-staged.jpg    ${STYLE_LABELS[job.style]} style, staged ${day}; unaltered original: ${stem}-original.jpg`);
    }
    if (staged.length === 0) throw new ListingNotStagedError();
    const notice = [
      listing.title,
      `Downloaded from RoomStager on ${now.toISOString().slice(0, 10)}.`,
      '',
      'These photos are virtually staged: furniture and decor were added digitally, the rooms are as photographed.',
      ...staged,
      '',
      'Files ending in -original.jpg are the unaltered photos.',
      '',
    ].join('\r\n');
    entries.push({ name: `${folder}/virtually-staged.txt`, read: () => Promise.resolve(Buffer.from(notice, 'utf8')) });
    return { fileName: `${folder}.zip`, stream: zipStream(entries, now) };
  }

  private async findOwned(userId: string, listingId: string): Promise<ListingRow> {
    const row = isUuid(listingId) ? await this.repository.findOwned(userId, listingId) : undefined;
    if (!row) throw listingNotFound();
    return row;
  }
}
