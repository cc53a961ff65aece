import { listingSchema, type Listing } from '@roomstager/contracts';
import { expect } from 'vitest';
import type { TestApp } from '../helpers.ts';
import { api, type Client } from '../pipeline/pipeline-helpers.ts';

/** The API calls of listings, as a signed-in browser makes them. */
export function listingsApi(t: TestApp, who: Client) {
  const a = api(t, who);
  return {
    ...a,
    async createListing(title = '12 Elm Street', style = 'modern'): Promise<string> {
      const res = await a.call('POST', '/api/listings', { title, style });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    },
    async addPhoto(listingId: string, imageUrl: string, roomType?: string): Promise<string> {
      const res = await a.call('POST', `/api/listings/${listingId}/photos`, { imageUrl, ...(roomType ? { roomType } : {}) });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().id as string;
    },
    async listing(listingId: string): Promise<Listing> {
      const res = await a.call('GET', `/api/listings/${listingId}`);
      expect(res.statusCode, res.body).toBe(200);
      return listingSchema.parse(res.json());
    },
  };
}
