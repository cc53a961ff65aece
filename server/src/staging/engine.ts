import type { RoomType, Style } from '@roomstager/contracts';

export interface StageInput {
  image: Buffer;
  contentType: string;
  style: Style;
  roomType: RoomType;
  signal: AbortSignal;
  /** The worker's logger, bound to the job: where a remote engine reports its retries. */
  logger?: EngineLogger;
}

/** What an engine may log: warnings an operator wants (never a key or the photo's bytes). */
export interface EngineLogger {
  warn(obj: object, msg: string): void;
}

export interface StageOutput {
  image: Buffer;
  contentType: string;
  /** The provider's model that produced it (remote engines); recorded on the job. */
  model?: string;
  /** The provider's published price for this run in millionths of a US dollar, where known. */
  costMicros?: number;
}

/** A staging engine: local, or a remote provider. */
export interface StagingEngine {
  readonly name: string;
  /** The provider's model (remote engines), shown at start. */
  readonly model?: string;
  stage(input: StageInput): Promise<StageOutput>;
}

/** The uploaded bytes are not a decodable image, or it lies outside IMAGE_LIMITS. */
export class InvalidImageError extends Error {
  override readonly name = 'InvalidImageError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The engine found no room to furnish in the photo (a strip, a blank frame, a close-up): the job
 * fails with `userMessage`, which says why and what kind of photo works, and is refunded.
 */
export class NoRoomError extends Error {
  override readonly name = 'NoRoomError';
  constructor(readonly userMessage: string) {
    super(userMessage);
  }
}
