import type { DriftReason, RoomType, StructureReport, Style } from '@roomstager/contracts';

export interface StageInput {
  image: Buffer;
  contentType: string;
  style: Style;
  roomType: RoomType;
  signal: AbortSignal;
  /** The worker's logger, bound to the job: where a remote engine reports its retries. */
  logger?: EngineLogger;
  /** What an earlier answer changed in the room: remote engines insist on keeping it (structure lock retry). */
  emphasis?: readonly DriftReason[];
  /**
   * The furniture set (issue 15): stagings with the same look and style get the same pieces and
   * materials, so a listing's rooms match; without one the set is chosen from the photo.
   */
  look?: string;
  /** How many variations to make (1 unless asked); an engine that makes one ignores it. */
  variations?: number;
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
  /** The structure lock's verdict on a remote answer (absent for the local engine, which never alters the room). */
  structure?: StructureReport;
  /** The engine that made it when not the one asked: the structure lock's local fallback. */
  engine?: string;
  /** Further variations after `image`, in the same content type (only when more than one was asked for). */
  alternatives?: Buffer[];
}

/** A staging engine: local, or a remote provider. */
export interface StagingEngine {
  readonly name: string;
  /** The provider's model (remote engines), shown at start. */
  readonly model?: string;
  /**
   * The provider is paid per image made: a staging asks it for one variation, and more are asked
   * for one credit each (docs/decisions/0026-more-variations-for-a-credit.md). Absent: variations cost nothing more (the local engine).
   */
  readonly chargesPerImage?: boolean;
  stage(input: StageInput): Promise<StageOutput>;
  /**
   * Readies what the first staging would otherwise wait for (the local engine's threads), when a
   * worker starts; resolves when done or when it cannot, never rejects.
   */
  warm?(): Promise<void>;
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

/** A remote answer changed the room twice: the job fails with `userMessage` and `structure`, refunded. */
export class StructureDriftError extends Error {
  override readonly name = 'StructureDriftError';
  constructor(
    readonly userMessage: string,
    readonly structure: StructureReport,
  ) {
    super(userMessage);
  }
}
