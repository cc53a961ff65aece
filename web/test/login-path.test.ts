import { describe, expect, it } from 'vitest';
import { loginPath } from '../src/lib/login-path.ts';

describe('loginPath', () => {
  it('keeps slashes readable in the address', () => {
    expect(loginPath('/credits')).toBe('/login?returnTo=/credits');
    expect(loginPath('/checkout/89')).toBe('/login?returnTo=/checkout/89');
  });

  it('encodes what would end or split the parameter, and reads back as the same path', () => {
    const path = '/gallery?page=2&x=a b#top';
    const url = new URL(loginPath(path), 'http://localhost');
    expect(url.pathname).toBe('/login');
    expect(url.hash).toBe('');
    expect([...url.searchParams.keys()]).toEqual(['returnTo']);
    expect(url.searchParams.get('returnTo')).toBe(path);
  });
});
