import { randomBytes } from 'node:crypto';
import { SHARE_TOKEN_PATTERN, sharePath, type RoomType, type ShareResponse, type ShareStateResponse, type Style } from '@roomstager/contracts';
import type { Db } from '../../db/client.ts';
import { hashToken } from '../auth/auth.service.ts';
import { NotFoundError } from '../errors.ts';
import type { ImageRow, ImagesService } from '../images/images.service.ts';
import type { JobsService } from '../jobs/jobs.service.ts';
import { SharesRepository } from './shares.repository.ts';

/** One before/after pair of a share page, with its two stored images. */
export interface SharedStaging {
  style: Style;
  roomType: RoomType;
  original: ImageRow;
  staged: ImageRow;
}

/** What a share link opens: its stagings (one for a job's share). Nothing about the owner. */
export interface SharedPage {
  token: string;
  stagings: [SharedStaging, ...SharedStaging[]];
}

/**
 * Public share links. The owner creates one for a completed job (a new one replaces the job's
 * earlier link) and revokes it by its token; anyone holding the token sees the page until then,
 * or until the job is deleted (its share goes with it). Tokens are 256 random bits; only their
 * SHA-256 is stored.
 */
export class SharesService {
  private readonly repository: SharesRepository;

  constructor(
    db: Db,
    private readonly jobs: JobsService,
    private readonly images: ImagesService,
    private readonly publicOrigin: string,
  ) {
    this.repository = new SharesRepository(db);
  }

  /** A new public link to the user's completed job; another user's job is a 404. */
  async createForJob(userId: string, jobId: string): Promise<ShareResponse> {
    await this.jobs.findCompleted(userId, jobId);
    const token = randomBytes(32).toString('base64url');
    const row = await this.repository.replaceForJob(userId, jobId, hashToken(token));
    if (!row) throw new NotFoundError('Job not found');
    return { token, url: `${this.publicOrigin}${sharePath(token)}` };
  }

  /** When the user's job got its current link, null without one; another user's job is a 404. */
  async stateForJob(userId: string, jobId: string): Promise<ShareStateResponse> {
    await this.jobs.view(userId, jobId);
    const row = await this.repository.findForJob(userId, jobId);
    return { createdAt: row ? row.createdAt.toISOString() : null };
  }

  /** Turns off the job's link, whose token the owner no longer has (it was shown once); 404 without one. */
  async revokeForJob(userId: string, jobId: string): Promise<void> {
    await this.jobs.view(userId, jobId);
    if (!(await this.repository.deleteForJob(userId, jobId))) throw new NotFoundError('Share not found');
  }

  /** Revokes the user's link; an unknown token, or another user's, is a 404. */
  async revoke(userId: string, token: string): Promise<void> {
    if (!(await this.repository.deleteOwned(userId, hashToken(token)))) throw new NotFoundError('Share not found');
  }

  /** The page a token opens, or null: malformed, revoked, or its job deleted or not completed. */
  async resolve(token: string): Promise<SharedPage | null> {
    if (!SHARE_TOKEN_PATTERN.test(token)) return null;
    const share = await this.repository.findByTokenHash(hashToken(token));
    if (!share?.jobId) return null;
    const job = await this.jobs.findCompletedById(share.jobId);
    if (!job) return null;
    const [original, staged] = await Promise.all([this.images.findById(job.originalImageId), this.images.findById(job.stagedImageId)]);
    if (!original || !staged) return null;
    return { token, stagings: [{ style: job.style, roomType: job.roomType, original, staged }] };
  }
}
