import sharp from 'sharp';
import type { StageInput, StageOutput, StagingEngine } from '../staging/engine.ts';

/**
 * Engines for tests of the product as a whole (browser tests): selected with STAGING_ENGINE, or
 * per job with the X-Test-Staging-Engine header. Development and test only: config refuses them in
 * production and the container registers none there.
 */
export class FailingEngine implements StagingEngine {
  readonly name = 'fail';

  async stage(input: StageInput): Promise<StageOutput> {
    input.signal.throwIfAborted();
    throw new Error('Simulated staging failure (the test engine "fail")');
  }
}

/** Dark, saturated colours: each stands out from a light room's floor in the worker's "adds something" check. */
const PAID_PALETTE = [
  { r: 150, g: 45, b: 40 },
  { r: 30, g: 100, b: 115 },
  { r: 45, g: 55, b: 115 },
  { r: 95, g: 105, b: 35 },
  { r: 105, g: 45, b: 95 },
  { r: 60, g: 60, b: 60 },
] as const;

/**
 * Stands in for a remote provider paid per image (docs/decisions/0026-more-variations-for-a-credit.md) without a network: one image per
 * run, a block of another colour and place each run on the lower part of the photo, so the
 * variations a browser test asks for differ at a glance.
 */
export class PaidEngine implements StagingEngine {
  readonly name = 'paid';
  readonly model = 'paid-test';
  readonly chargesPerImage = true;
  private runs = 0;

  async stage(input: StageInput): Promise<StageOutput> {
    input.signal.throwIfAborted();
    const { width = 640, height = 480 } = await sharp(input.image).metadata();
    const run = this.runs++;
    const colour = PAID_PALETTE[run % PAID_PALETTE.length] ?? PAID_PALETTE[0];
    const block = { width: Math.round(width * 0.36), height: Math.round(height * 0.2) };
    const left = Math.round(width * (0.08 + 0.12 * (run % 4)));
    const box = await sharp({ create: { ...block, channels: 3, background: colour } }).png().toBuffer();
    const image = await sharp(input.image)
      .composite([{ input: box, left, top: Math.round(height * 0.66) }])
      .jpeg({ quality: 90 })
      .toBuffer();
    return { image, contentType: 'image/jpeg', model: this.model };
  }
}

export function createTestEngines(): Map<string, StagingEngine> {
  return new Map<string, StagingEngine>([
    ['fail', new FailingEngine()],
    ['paid', new PaidEngine()],
  ]);
}
