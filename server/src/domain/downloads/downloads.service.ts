import { DOWNLOAD_SIZE_PACK, DOWNLOAD_SIZES, stagedFileName, type CreditPackId, type DownloadQuery, type DownloadSize } from '@roomstager/contracts';
import type { ImageRow, ImagesService } from '../images/images.service.ts';
import type { JobsService } from '../jobs/jobs.service.ts';
import { NotFoundError } from '../errors.ts';
import { SizeNotIncludedError } from './errors.ts';
import { renderDownload } from './rendition.ts';

/** What the downloads ask the payments domain: whether an account bought a pack (captured, not refunded). */
export interface PackPurchases {
  hasBought(userId: string, pack: CreditPackId): Promise<boolean>;
}

export interface Download {
  jpeg: Buffer;
  fileName: string;
}

/**
 * Staged photos in the sizes the packs promise: HD for everyone, 4K for buyers of the Enterprise
 * pack, each with the "Virtually Staged" stamp when asked for. The stored staging (at the
 * original's full resolution) is never changed; each download is made from it.
 */
export class DownloadsService {
  constructor(
    private readonly jobs: JobsService,
    private readonly images: ImagesService,
    private readonly purchases: PackPurchases,
  ) {}

  /** The sizes the account may download. */
  async sizesFor(userId: string): Promise<DownloadSize[]> {
    const allowed = await Promise.all(DOWNLOAD_SIZES.map((size) => this.allows(userId, size)));
    return DOWNLOAD_SIZES.filter((_, i) => allowed[i]);
  }

  /** The user's completed staging at a size; another user's job is a 404, a size not bought a 403. */
  async download(userId: string, jobId: string, query: DownloadQuery): Promise<Download> {
    const job = await this.jobs.findCompleted(userId, jobId);
    if (!(await this.allows(userId, query.size))) throw new SizeNotIncludedError();
    const row = await this.images.findById(job.stagedImageId);
    if (!row) throw new NotFoundError('Image not found');
    const jpeg = await this.rendition(row, query.size, query.label === '1');
    return { jpeg, fileName: stagedFileName(job.style) };
  }

  /**
   * A stored staged image at a size, labelled or not (a share page shows the HD one); a 404 when
   * its file is gone. Unstamped sizes are kept once made; a stamp is drawn on the full image each time.
   */
  async rendition(row: ImageRow, size: DownloadSize, label: boolean): Promise<Buffer> {
    const bytes = label ? await this.images.readFile(row) : await this.images.rendition(row, size, (jpeg) => renderDownload(jpeg, size, false));
    if (!bytes) throw new NotFoundError('Image not found');
    return label ? renderDownload(bytes, size, true) : bytes;
  }

  private async allows(userId: string, size: DownloadSize): Promise<boolean> {
    const pack = DOWNLOAD_SIZE_PACK[size];
    return pack === null || this.purchases.hasBought(userId, pack);
  }
}
