import { insufficientListingCreditsSchema, type Listing, type ListingPhoto } from '@roomstager/contracts';
import { ApiError } from '../../lib/api-client.ts';
import { isBeingMade, isInProgress } from '../../lib/job-format.ts';

/** A photo whose latest staging is queued or running. */
export const isPhotoActive = (photo: ListingPhoto): boolean => isInProgress(photo.job);

/** A photo is being staged, or variations of its staging are being made: the listing polls. */
export const hasActivePhoto = (listing: Listing | undefined): boolean => !!listing?.photos.some((photo) => isBeingMade(photo.job));

/** What "Stage" takes, as the server decides it: every photo never staged, or whose last staging failed. */
export const photosToStage = (listing: Listing): ListingPhoto[] => listing.photos.filter((photo) => !photo.job || photo.job.status === 'failed');

/** The staged photo a listing shows for a photo: its chosen variation, else the job's result. */
export function chosenStagedUrl(photo: ListingPhoto): string | null {
  const job = photo.job;
  if (job?.status !== 'completed') return null;
  return job.variations.find((v) => v.id === job.chosenVariationId)?.stagedImageUrl ?? job.stagedImageUrl;
}

/** The words of the page's live region: how far the listing's staging has got. */
export function stagingSummary(listing: Listing): string {
  const count = (status: string) => listing.photos.filter((photo) => photo.job?.status === status).length;
  const active = count('pending') + count('processing');
  const staged = count('completed');
  const failed = count('failed');
  const parts = [`${staged} of ${listing.photos.length} ${listing.photos.length === 1 ? 'photo' : 'photos'} staged`];
  if (active > 0) parts.push(`${active} in progress`);
  if (failed > 0) parts.push(`${failed} failed`);
  return parts.join(', ');
}

export interface CreditShortfall {
  needed: number;
  balance: number;
  missing: number;
}

/** A 402 from staging: how many credits it needed, the balance, and how many are missing. */
export function creditShortfall(error: unknown): CreditShortfall | null {
  if (!(error instanceof ApiError) || error.status !== 402) return null;
  const details = insufficientListingCreditsSchema.safeParse(error.details);
  if (!details.success) return null;
  const { needed, balance } = details.data;
  return { needed, balance, missing: Math.max(1, needed - balance) };
}

/** "1 credit", "3 credits". */
export const credits = (n: number): string => `${n} ${n === 1 ? 'credit' : 'credits'}`;

/** A listing card's counts: "3 photos · 1 staged". */
export const photoCountsText = ({ photoCount, stagedCount }: { photoCount: number; stagedCount: number }): string =>
  `${photoCount} ${photoCount === 1 ? 'photo' : 'photos'} · ${stagedCount} staged`;
