import { z } from 'zod';
import type { CreditPackId } from './constants.ts';

/**
 * Publishing a staging (issue 16): downloads in the sizes the packs promise, an optional
 * "Virtually Staged" label, and public share links with the unaltered original.
 */

export const DOWNLOAD_SIZES = ['hd', '4k'] as const;
export type DownloadSize = (typeof DOWNLOAD_SIZES)[number];

/** The long side of each size in pixels; a smaller staging is delivered at its own size, never enlarged. */
export const DOWNLOAD_LONG_SIDE: Readonly<Record<DownloadSize, number>> = { hd: 1920, '4k': 3840 };

/** Who may download each size: HD everyone, 4K buyers of the Enterprise pack (the card promises "4K quality"). */
export const DOWNLOAD_SIZE_PACK: Readonly<Record<DownloadSize, CreditPackId | null>> = { hd: null, '4k': 'enterprise' };

/** The words stamped on a labelled download and shown on a share page. */
export const VIRTUALLY_STAGED_LABEL = 'Virtually Staged';

/** `GET /api/jobs/{id}/download?size=hd|4k&label=0|1`: the staged JPEG; the label is off unless asked for. */
export const downloadQuerySchema = z.strictObject({
  size: z.enum(DOWNLOAD_SIZES, { error: 'size must be hd or 4k' }),
  label: z.enum(['0', '1'], { error: 'label must be 0 or 1' }).default('0'),
});
export type DownloadQuery = z.infer<typeof downloadQuerySchema>;

/** `GET /api/downloads/sizes`: the sizes the signed-in account may download. */
export const downloadSizesResponseSchema = z.object({ sizes: z.array(z.enum(DOWNLOAD_SIZES)) });
export type DownloadSizesResponse = z.infer<typeof downloadSizesResponseSchema>;

/** A staged photo's file name, as every staged download is named. */
export const stagedFileName = (style: string, now = Date.now()) => `staged-${style}-${now}.jpg`;
/** An original photo's file name. */
export const originalFileName = (now = Date.now()) => `original-${now}.jpg`;

/** 32 random bytes in base64url: 256 bits, far past guessing. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const shareTokenSchema = z.string().regex(SHARE_TOKEN_PATTERN, { error: 'Not a share token' });

/** Where a share's public page lives: `/s/{token}`. */
export const sharePath = (token: string) => `/s/${token}`;

/** `POST /api/jobs/{id}/share`: a new public link (it replaces the job's earlier one). */
export const shareResponseSchema = z.object({ token: shareTokenSchema, url: z.url() });
export type ShareResponse = z.infer<typeof shareResponseSchema>;

/** `GET /api/jobs/{id}/share`: when the job's public link was made, null without one (its address was shown once, when made). */
export const shareStateResponseSchema = z.object({ createdAt: z.iso.datetime({ offset: true }).nullable() });
export type ShareStateResponse = z.infer<typeof shareStateResponseSchema>;
