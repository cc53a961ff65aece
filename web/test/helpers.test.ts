import { describe, expect, it } from 'vitest';
import { clampPercent } from '../src/components/before-after-slider.tsx';
import { signInErrorMessage } from '../src/features/auth/sign-in-errors.ts';
import { profileChanges } from '../src/features/profile/profile-page.tsx';
import { formatCents } from '../src/lib/format.ts';

describe('sign-in error messages', () => {
  it('prefers the message parameter, then the catalogue, then the generic text', () => {
    expect(signInErrorMessage('OAuthSignin', 'Custom')).toBe('Custom');
    expect(signInErrorMessage('OAuthSignin', null)).toBe('There was an error signing in with Google. Please try again.');
    expect(signInErrorMessage('EmailCreateAccount', null)).toBe('Could not create your account. Please try again.');
    expect(signInErrorMessage('Nope', null)).toBe('An unexpected error occurred');
    expect(signInErrorMessage('toString', null)).toBe('An unexpected error occurred');
  });
});

describe('profile changes', () => {
  const user = { username: 'Ada', email: 'ada@example.com' };
  it('sends only non-empty fields that differ', () => {
    expect(profileChanges(user, '', '')).toEqual({});
    expect(profileChanges(user, 'Ada', 'ada@example.com')).toEqual({});
    expect(profileChanges(user, '  Grace ', '')).toEqual({ username: 'Grace' });
    expect(profileChanges(user, '', 'grace@example.com')).toEqual({ email: 'grace@example.com' });
  });
});

describe('formatting', () => {
  it('shows cents as dollars with two decimals', () => {
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(8900)).toBe('$89.00');
    expect(formatCents(39905)).toBe('$399.05');
  });
  it('clamps the slider to 0-100', () => {
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(150)).toBe(100);
    expect(clampPercent(42.5)).toBe(42.5);
  });
});
