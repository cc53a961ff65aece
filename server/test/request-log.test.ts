import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestForLog } from '../src/api/app.ts';

const logged = (url: string, method = 'GET') => requestForLog({ url, method, host: 'localhost', ip: '127.0.0.1', socket: { remotePort: 1 } } as unknown as FastifyRequest).url;
const token = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';

describe('the request as logged', () => {
  it('blanks the sign-in code and state in the query', () => {
    expect(logged('/api/auth/google/callback?code=abc&state=def&iss=x')).toBe('/api/auth/google/callback?code=%5Bredacted%5D&state=%5Bredacted%5D&iss=x');
  });

  it('blanks a share link token in the path, on the public page and its images and on revoking', () => {
    expect(logged(`/s/${token}`)).toBe('/s/[redacted]');
    expect(logged(`/s/${token}/staged.jpg`)).toBe('/s/[redacted]/staged.jpg');
    expect(logged(`/api/shares/${token}`, 'DELETE')).toBe('/api/shares/[redacted]');
    expect(logged('/s/assets/share.css')).toBe('/s/assets/share.css');
    expect(logged('/api/jobs/1/share', 'POST')).toBe('/api/jobs/1/share');
  });
});
