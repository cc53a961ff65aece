/**
 * A worker process for the crash test: `npm run worker`'s code with a test engine chosen by
 * TEST_CHILD_ENGINE (`slow`: announces itself on stdout, then never finishes; `drawing`: quick).
 * Test-only: production code has no way to load an engine from the environment.
 */
import { runWorkerProcess } from '../../src/worker/process.ts';
import type { StageInput, StageOutput, StagingEngine } from '../../src/staging/engine.ts';
import { DrawingEngine } from './fakes.ts';

class SlowEngine implements StagingEngine {
  readonly name = 'slow';
  stage(input: StageInput): Promise<StageOutput> {
    process.stdout.write('ENGINE_STARTED\n');
    return new Promise((_resolve, reject) => {
      input.signal.addEventListener('abort', () => reject(input.signal.reason), { once: true });
    });
  }
}

const engine: StagingEngine = process.env.TEST_CHILD_ENGINE === 'slow' ? new SlowEngine() : new DrawingEngine();
await runWorkerProcess({ overrides: { engine } });
