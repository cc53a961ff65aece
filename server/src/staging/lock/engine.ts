import type { DriftReason } from '@roomstager/contracts';
import { StructureDriftError, type StageInput, type StageOutput, type StagingEngine } from '../engine.ts';
import { lockOnThread } from './thread.ts';
import { DRIFT_REASON_TEXT } from './verdict.ts';

/** The job's message when a generative engine changed the room twice (the reasons follow). */
export function driftMessage(reasons: readonly DriftReason[]): string {
  const what = reasons.map((r) => DRIFT_REASON_TEXT[r]).join('; ');
  return `The image model changed the room instead of only adding furniture (${what}), twice, so nothing was delivered. Your credit has been refunded; please try again or use another photo.`;
}

/**
 * A generative engine behind the structure lock (issue 13): every answer is checked against the
 * original and delivered as the lock's composite, the original's own pixels with only what the
 * model added. An answer that drifted is asked for once more with the prompt firmer where it
 * failed; a second drift fails the job (refunded), or goes to `fallback` (STRUCTURE_FALLBACK=local).
 */
export class LockedEngine implements StagingEngine {
  readonly name: string;
  readonly model?: string;
  readonly chargesPerImage?: boolean;

  constructor(
    private readonly inner: StagingEngine,
    private readonly fallback?: StagingEngine,
  ) {
    this.name = inner.name;
    if (inner.model !== undefined) this.model = inner.model;
    if (inner.chargesPerImage !== undefined) this.chargesPerImage = inner.chargesPerImage;
  }

  async stage(input: StageInput): Promise<StageOutput> {
    let emphasis: DriftReason[] = [];
    let costMicros: number | undefined;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.inner.stage({ ...input, emphasis });
      if (answer.costMicros !== undefined) costMicros = (costMicros ?? 0) + answer.costMicros;
      const { check, image } = await lockOnThread(input.image, answer.image, input.signal);
      const structure = { verdict: check.verdict, score: check.score, reasons: check.reasons };
      if (check.verdict === 'faithful') {
        return { image, contentType: 'image/jpeg', structure, ...(answer.model ? { model: answer.model } : {}), ...(costMicros !== undefined ? { costMicros } : {}) };
      }
      input.logger?.warn({ event: 'structure.drift', attempt, score: check.score, reasons: check.reasons, measures: check.measures }, 'the image model changed the room');
      if (attempt === 2) {
        if (this.fallback) return { ...(await this.fallback.stage(input)), engine: this.fallback.name };
        throw new StructureDriftError(driftMessage(check.reasons), structure);
      }
      emphasis = check.reasons;
    }
  }
}
