import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/api/errors.ts';
import { Semaphore } from '../../src/services/semaphore.ts';

describe('upload decode limiter (UP-09)', () => {
  it('runs two at once, lets eight wait, refuses the eleventh with 503 at once, then serves every waiting task', async () => {
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const sem = new Semaphore(2, 8);
    let running = 0;
    let peak = 0;
    const task = () =>
      sem.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await gate;
        running--;
        return 'done';
      });
    const accepted = Array.from({ length: 10 }, task);
    const refused: unknown = await task().then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).statusCode).toBe(503);
    expect((refused as AppError).message).toBe('The server is busy processing other photos. Please try again in a moment.');
    expect(running).toBe(2);
    open();
    expect(await Promise.all(accepted)).toEqual(Array(10).fill('done'));
    expect(peak).toBe(2);
    // Everything released: a new burst gets the same room again.
    expect(await Promise.all([task(), task(), task()])).toEqual(['done', 'done', 'done']);
  });

  it('frees its slot when a task fails', async () => {
    const sem = new Semaphore(1, 0);
    await expect(sem.run(() => Promise.reject(new Error('bad photo')))).rejects.toThrow('bad photo');
    expect(await sem.run(() => Promise.resolve(1))).toBe(1);
  });
});
