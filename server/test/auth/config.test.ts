import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { configProblems } from '../helpers.ts';

describe('sign-in configuration', () => {
  it('uses the development issuer by default', () => {
    const config = loadConfig({ PORT: '4000' });
    expect(config.oidc).toEqual({
      kind: 'development',
      issuerUrl: 'http://localhost:4000/dev/oidc',
      clientId: 'roomstager-development',
      redirectUri: 'http://localhost:4000/api/auth/google/callback',
    });
  });

  it('uses Google with its settings, the redirect URI fixed on PUBLIC_URL', () => {
    const config = loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', PUBLIC_URL: 'https://app.example/' });
    expect(config.oidc).toEqual({
      kind: 'google',
      issuerUrl: 'https://accounts.google.com',
      clientId: 'id',
      clientSecret: 'secret',
      redirectUri: 'https://app.example/api/auth/google/callback',
    });
  });

  it('needs both Google settings or neither', () => {
    expect(configProblems({ GOOGLE_CLIENT_ID: 'id' }).join()).toContain('GOOGLE_CLIENT_SECRET together');
    expect(configProblems({ GOOGLE_CLIENT_SECRET: 'secret' }).join()).toContain('GOOGLE_CLIENT_SECRET together');
  });

  it('refuses to start production without Google settings', () => {
    expect(configProblems({ NODE_ENV: 'production' }).join()).toContain('production needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET');
    expect(configProblems({ NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' })).toEqual([]);
  });

  it('accepts an issuer override only with a client, and only https in production', () => {
    expect(configProblems({ OIDC_ISSUER_URL: 'http://127.0.0.1:8080' }).join()).toContain('OIDC_ISSUER_URL');
    expect(
      configProblems({ NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', OIDC_ISSUER_URL: 'http://idp.example' }).join(),
    ).toContain('https');
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's', OIDC_ISSUER_URL: 'http://127.0.0.1:8080' }).oidc.issuerUrl).toBe(
      'http://127.0.0.1:8080',
    );
  });

  it('validates the sign-in rate limit', () => {
    expect(loadConfig({}).SIGN_IN_RATE_LIMIT).toBe(120);
    expect(configProblems({ SIGN_IN_RATE_LIMIT: '0' }).join()).toContain('SIGN_IN_RATE_LIMIT');
  });
});
