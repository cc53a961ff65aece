import { z } from 'zod';
import { ROOM_TYPES, STYLES } from './constants.ts';
import { JOB_STATUSES, moreVariationsSchema, variationSchema } from './jobs.ts';

/**
 * Listings (issue 15): the photos of one property, staged together in one style with one look
 * (the same furniture set in every room), each staging offering variations to choose from.
 */

export const LISTING_TITLE_MAX_LENGTH = 120;
/** Photos in one listing: peers' listings hold 5 to 30. */
export const LISTING_PHOTOS_MAX = 30;
/** Variations a local staging produces for its one credit. */
export const LOCAL_VARIATIONS = 3;

const titleSchema = z
  .string()
  .trim()
  .min(1, { error: 'Enter a title, such as the address' })
  .max(LISTING_TITLE_MAX_LENGTH, { error: `Title must be at most ${LISTING_TITLE_MAX_LENGTH} characters` });

/** `POST /api/listings` -> `{id}`. */
export const createListingRequestSchema = z.strictObject({ title: titleSchema, style: z.enum(STYLES) });
export type CreateListingRequest = z.infer<typeof createListingRequestSchema>;

/** `PATCH /api/listings/{id}`: a new style stages the next run with another furniture set. */
export const updateListingRequestSchema = z
  .strictObject({ title: titleSchema.optional(), style: z.enum(STYLES).optional() })
  .refine((body) => body.title !== undefined || body.style !== undefined, { error: 'Nothing to change' });
export type UpdateListingRequest = z.infer<typeof updateListingRequestSchema>;

/** `POST /api/listings/{id}/photos` (after `POST /api/upload`) -> `{id}`; the room type defaults to living room. */
export const addListingPhotoRequestSchema = z.strictObject({
  imageUrl: z.string().min(1),
  roomType: z.enum(ROOM_TYPES).default('living_room'),
});
export type AddListingPhotoRequest = z.input<typeof addListingPhotoRequestSchema>;

/** `PATCH /api/listings/{id}/photos/{photoId}`. */
export const updateListingPhotoRequestSchema = z.strictObject({ roomType: z.enum(ROOM_TYPES) });
export type UpdateListingPhotoRequest = z.infer<typeof updateListingPhotoRequestSchema>;

export const createdResponseSchema = z.object({ id: z.uuid() });
export type CreatedResponse = z.infer<typeof createdResponseSchema>;

/** A photo's latest staging, as a listing shows it. */
export const listingJobSchema = z.object({
  id: z.uuid(),
  status: z.enum(JOB_STATUSES),
  style: z.enum(STYLES),
  /** Empty until the job is completed. */
  variations: z.array(variationSchema),
  /** The variation shown everywhere (gallery, downloads, `stagedImageUrl`); null until completed. */
  chosenVariationId: z.uuid().nullable(),
  /** As the job's: whether one more variation can be asked for (`POST /api/jobs/{id}/variations`), and those asked for. */
  moreVariations: moreVariationsSchema,
  stagedImageUrl: z.string().nullable(),
  thumbnailUrl: z.string(),
  errorMessage: z.string().nullable(),
  /** 1, or 0 once a failure was refunded. */
  creditsUsed: z.number().int().nonnegative(),
});
export type ListingJob = z.infer<typeof listingJobSchema>;

export const listingPhotoSchema = z.object({
  id: z.uuid(),
  imageUrl: z.string(),
  roomType: z.enum(ROOM_TYPES),
  createdAt: z.iso.datetime({ offset: true }),
  /** Null until the photo is first staged. */
  job: listingJobSchema.nullable(),
});
export type ListingPhoto = z.infer<typeof listingPhotoSchema>;

/** `GET /api/listings/{id}`: photos in the order they were added. */
export const listingSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  style: z.enum(STYLES),
  createdAt: z.iso.datetime({ offset: true }),
  photos: z.array(listingPhotoSchema),
});
export type Listing = z.infer<typeof listingSchema>;

/** `GET /api/listings`: newest first. */
export const listingSummarySchema = z.object({
  id: z.uuid(),
  title: z.string(),
  style: z.enum(STYLES),
  createdAt: z.iso.datetime({ offset: true }),
  photoCount: z.number().int().nonnegative(),
  /** Photos whose latest staging is completed. */
  stagedCount: z.number().int().nonnegative(),
  /** The first photo's thumbnail (its staging's once there is one); null for an empty listing. */
  coverUrl: z.string().nullable(),
});
export type ListingSummary = z.infer<typeof listingSummarySchema>;
export const listingListResponseSchema = z.array(listingSummarySchema);

/**
 * `POST /api/listings/{id}/stage`: stages every photo without a pending, processing or completed
 * job in the listing's current style, one credit each, all debited in one transaction (402
 * `INSUFFICIENT_CREDITS` with `details: {needed, balance}` and nothing debited when short).
 * `POST /api/listings/{id}/photos/{photoId}/stage` re-stages one photo (one credit).
 */
export const stageListingResponseSchema = z.object({
  jobIds: z.array(z.uuid()),
  creditsUsed: z.number().int().nonnegative(),
  remainingCredits: z.number().int().nonnegative(),
});
export type StageListingResponse = z.infer<typeof stageListingResponseSchema>;

/** What a 402 from staging a listing says besides its message. */
export const insufficientListingCreditsSchema = z.object({ needed: z.number().int().positive(), balance: z.number().int().nonnegative() });

/** A listing's ZIP entry names: `living-room-01-staged.jpg`, `living-room-01-original.jpg`. */
export const listingFileStem = (roomType: (typeof ROOM_TYPES)[number], number: number) =>
  `${roomType.replace(/_/g, '-')}-${String(number).padStart(2, '0')}`;
