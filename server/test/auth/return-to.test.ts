import { describe, expect, it } from 'vitest';
import { sanitizeReturnTo } from '../../src/domain/auth/return-to.ts';
import { initialUsername } from '../../src/domain/users/users.service.ts';

describe('sanitizeReturnTo', () => {
  it.each([
    ['/gallery', '/gallery'],
    ['/gallery?page=2#top', '/gallery?page=2#top'],
    ['/checkout/19', '/checkout/19'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/a/../profile', '/profile'],
    ['/ünïcode', '/%C3%BCn%C3%AFcode'],
  ])('keeps %j as %j', (input, expected) => {
    expect(sanitizeReturnTo(input)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'https://evil.example',
    'http://localhost:3000/gallery',
    '%2F%2Fevil.example',
    'javascript:alert(1)',
    ' /gallery',
    '/\t/evil.example',
    '/\r\n/evil.example',
    '/gallery\u0000',
    '/gallery\u0085',
    '/..//evil.example',
    '/%2e%2e//evil.example',
    '/api/auth/google',
    '/api',
    '',
    `/${'a'.repeat(2048)}`,
    null,
    undefined,
    42,
    ['/gallery'],
  ])('refuses %j', (input) => {
    expect(sanitizeReturnTo(input)).toBeNull();
  });
});

describe('initialUsername', () => {
  it('takes the provider name, else the e-mail local part, trimmed to 50 characters', () => {
    expect(initialUsername('  Ada Lovelace ', 'ada@example.com')).toBe('Ada Lovelace');
    expect(initialUsername(undefined, 'grace.hopper@example.com')).toBe('grace.hopper');
    expect(initialUsername('\u0000\u0007', 'x@example.com')).toBe('x');
    expect(initialUsername('n'.repeat(80), 'x@example.com')).toHaveLength(50);
    expect(initialUsername('', '@example.com')).toBe('User');
  });
});
