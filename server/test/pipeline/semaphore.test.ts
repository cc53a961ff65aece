import { describe, expect, it } from 'vitest';
import { httpStatus } from '../../src/api/errors.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { Semaphore } from '../../src/domain/images/semaphore.ts';

function gate() {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as DomainError);

describe('upload decode limiter', () => {
  it('runs two at once, lets eight wait, refuses the eleventh with 503 at once, then serves every waiting task', async () => {
    const g = gate();
    const sem = new Semaphore({ limit: 2, queueLimit: 8, perKey: 2, perKeyQueued: 20 });
    let running = 0;
    let peak = 0;
    const task = (key = 'a') =>
      sem.run(key, async () => {
        running++;
        peak = Math.max(peak, running);
        await g.promise;
        running--;
        return 'done';
      });
    const accepted = Array.from({ length: 10 }, () => task());
    const refused = await refusal(task());
    expect(refused).toBeInstanceOf(DomainError);
    expect(httpStatus(refused?.code ?? '')).toBe(503);
    expect(refused?.message).toBe('The server is busy processing other photos. Please try again in a moment.');
    expect(running).toBe(2);
    g.open();
    expect(await Promise.all(accepted)).toEqual(Array(10).fill('done'));
    expect(peak).toBe(2);
    // Everything released: a new burst gets the same room again.
    expect(await Promise.all([task(), task(), task()])).toEqual(['done', 'done', 'done']);
  });

  it('frees its slot when a task fails', async () => {
    const sem = new Semaphore({ limit: 1, queueLimit: 0, perKey: 1, perKeyQueued: 1 });
    await expect(sem.run('a', () => Promise.reject(new Error('bad photo')))).rejects.toThrow('bad photo');
    expect(await sem.run('a', () => Promise.resolve(1))).toBe(1);
  });

  it('keeps one account to its share: one running, three in flight, the rest refused with 429; others start at once', async () => {
    const slow = gate();
    const sem = new Semaphore({ limit: 2, queueLimit: 8, perKey: 1, perKeyQueued: 3 });
    const started: string[] = [];
    const task = (key: string, wait: Promise<void>) =>
      sem.run(key, async () => {
        started.push(key);
        await wait;
        return key;
      });
    const attacker = [task('attacker', slow.promise), task('attacker', slow.promise), task('attacker', slow.promise)];
    const refused = await Promise.all(Array.from({ length: 7 }, () => refusal(task('attacker', slow.promise))));
    expect(refused.map((e) => httpStatus(e?.code ?? ''))).toEqual(Array(7).fill(429));
    expect(started).toEqual(['attacker']);
    // The attacker's slow files hold one slot; another account's upload runs in the other at once.
    expect(await task('bob', Promise.resolve())).toBe('bob');
    expect(await task('carol', Promise.resolve())).toBe('carol');
    expect(started).toEqual(['attacker', 'bob', 'carol']);
    slow.open();
    expect(await Promise.all(attacker)).toEqual(['attacker', 'attacker', 'attacker']);
  });

  it('gives a freed slot to the longest-waiting task whose account is under its share', async () => {
    const a = gate();
    const b = gate();
    const sem = new Semaphore({ limit: 2, queueLimit: 8, perKey: 1, perKeyQueued: 3 });
    const order: string[] = [];
    const task = (name: string, key: string, wait: Promise<void> = Promise.resolve()) =>
      sem.run(key, async () => {
        order.push(name);
        await wait;
      });
    const running = [task('a1', 'a', a.promise), task('b1', 'b', b.promise)];
    const waiting = [task('a2', 'a'), task('c1', 'c')];
    expect(order).toEqual(['a1', 'b1']);
    // b1 frees a slot: a2 waited longer but its account still runs a1, so c1 goes first.
    b.open();
    await running[1];
    await waiting[1];
    expect(order).toEqual(['a1', 'b1', 'c1']);
    a.open();
    await Promise.all([...running, ...waiting]);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2']);
  });
});
