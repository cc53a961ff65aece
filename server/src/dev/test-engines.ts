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

export function createTestEngines(): Map<string, StagingEngine> {
  return new Map<string, StagingEngine>([['fail', new FailingEngine()]]);
}
