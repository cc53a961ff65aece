import { describe, expect, it } from 'vitest';
import { CREDIT_PACKS, idempotencyKeySchema, isAppRoute, packByPrice } from '../src/index.ts';

describe('app routes', () => {
  it('knows every screen of the app', () => {
    for (const path of ['/', '/login', '/signup', '/pricing', '/privacy-policy', '/terms-and-conditions', '/generate', '/gallery', '/credits', '/profile', '/checkout/89', '/pricing/']) {
      expect(isAppRoute(path), path).toBe(true);
    }
  });
  it('treats anything else as not found', () => {
    for (const path of ['/nope', '/checkout', '/checkout/', '/checkout/1/2', '/generate/x', '/api/health']) {
      expect(isAppRoute(path), path).toBe(false);
    }
  });
});

describe('credit packs', () => {
  it('are the three packs on sale', () => {
    expect(CREDIT_PACKS.map((p) => [p.name, p.priceUsd, p.credits])).toEqual([
      ['Starter', 19, 10],
      ['Professional', 89, 50],
      ['Enterprise', 399, 250],
    ]);
    expect(packByPrice(89)?.id).toBe('professional');
    expect(packByPrice(15)).toBeUndefined();
  });
});

describe('Idempotency-Key', () => {
  it('takes a UUID or 8-100 letters, digits, "-" and "_"', () => {
    for (const key of ['0b9c3f4e-6a1d-4c7e-9f3a-2d5e8b1c7a90', 'abcd_EF-', 'x'.repeat(100)]) {
      expect(idempotencyKeySchema.safeParse(key).success, key).toBe(true);
    }
    for (const key of ['short', 'x'.repeat(101), 'has space', 'semi;colon', '']) {
      expect(idempotencyKeySchema.safeParse(key).success, key).toBe(false);
    }
  });
});
