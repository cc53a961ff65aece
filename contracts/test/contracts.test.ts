import { describe, expect, it } from 'vitest';
import {
  CREDIT_PACKS,
  downloadQuerySchema,
  idempotencyKeySchema,
  isAppRoute,
  originalFileName,
  packByPrice,
  shareTokenSchema,
  stagedFileName,
} from '../src/index.ts';

describe('app routes', () => {
  it('knows every screen of the app', () => {
    for (const path of ['/', '/login', '/signup', '/pricing', '/privacy-policy', '/terms-and-conditions', '/generate', '/gallery', '/credits', '/profile', '/checkout/89', '/pricing/', '/listings', '/listings/7b0d1c52-54a4-4c1f-9d0e-2f4a5b6c7d8e', '/api-keys', '/docs/api']) {
      expect(isAppRoute(path), path).toBe(true);
    }
  });
  it('treats anything else as not found', () => {
    for (const path of ['/nope', '/checkout', '/checkout/', '/checkout/1/2', '/generate/x', '/api/health', '/listings/1/2']) {
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

describe('publishing', () => {
  it('takes a download size, and a label of 0 or 1 that is off unless asked for', () => {
    expect(downloadQuerySchema.parse({ size: 'hd' })).toEqual({ size: 'hd', label: '0' });
    expect(downloadQuerySchema.parse({ size: '4k', label: '1' })).toEqual({ size: '4k', label: '1' });
    for (const bad of [{}, { size: '8k' }, { size: 'hd', label: 'true' }, { size: 'hd', other: '1' }, { size: ['hd', '4k'] }]) {
      expect(downloadQuerySchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
  it('names staged and original downloads as the gallery always has', () => {
    expect(stagedFileName('modern', 1700000000000)).toBe('staged-modern-1700000000000.jpg');
    expect(originalFileName(1700000000000)).toBe('original-1700000000000.jpg');
  });
  it('takes share tokens of 43 base64url characters only', () => {
    expect(shareTokenSchema.safeParse('A'.repeat(43)).success).toBe(true);
    for (const bad of ['A'.repeat(42), 'A'.repeat(44), `${'A'.repeat(42)}=`, `${'A'.repeat(42)}/`]) expect(shareTokenSchema.safeParse(bad).success, bad).toBe(false);
  });
});
