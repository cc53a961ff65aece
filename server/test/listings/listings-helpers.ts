import { listingSchema, type Listing } from '@roomstager/contracts';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { StageInput, StageOutput } from '../../src/staging/engine.ts';
import { DrawingEngine } from '../pipeline/fakes.ts';
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

/** Draws the result, then as many further variations as asked, each a box of another colour; remembers what it was asked. */
export class VariationsEngine extends DrawingEngine {
  asked: Array<number | undefined> = [];
  /** A further variation that is the photo itself (adds nothing): left out by the worker. */
  constructor(private readonly blankAlternative = false) {
    super();
  }
  override async stage(input: StageInput): Promise<StageOutput> {
    this.asked.push(input.variations);
    const out = await super.stage(input);
    const alternatives: Buffer[] = [];
    for (let i = 1; i < (input.variations ?? 1); i++) {
      const box = await sharp({ create: { width: 120, height: 90, channels: 3, background: { r: 40, g: 60 * i, b: 200 } } }).png().toBuffer();
      alternatives.push(this.blankAlternative && i === 1 ? input.image : await sharp(input.image).composite([{ input: box, top: 20 * i, left: 30 * i }]).jpeg().toBuffer());
    }
    return { ...out, alternatives };
  }
}
