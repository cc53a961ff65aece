import { z } from 'zod';
import type { StageInput, StageOutput, StagingEngine } from '../engine.ts';
import { buildStagingPrompt } from '../prompt.ts';
import { decodeBase64Image, finishOutput, httpClient, trimBase, type RemoteEngineOptions } from './common.ts';
import type { HttpClient } from './http.ts';
import { prepareInput } from './image.ts';

export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-flash-image';
/** Published price of one Gemini 2.5 Flash Image output (late 2026), in micro-dollars. */
export const GEMINI_COST_MICROS = 39_000;

/** finishReasons that mean the model refused (with no image in the answer). */
const REFUSAL_REASONS = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'IMAGE_SAFETY', 'BLOCKLIST', 'SPII', 'IMAGE_PROHIBITED_CONTENT']);

const inlineData = z.object({ mimeType: z.string().optional(), mime_type: z.string().optional(), data: z.string() });
const responseSchema = z.object({
  candidates: z
    .array(
      z.object({
        content: z
          .object({
            parts: z.array(z.object({ text: z.string().optional(), inlineData: inlineData.optional(), inline_data: inlineData.optional() })).optional(),
          })
          .optional(),
        finishReason: z.string().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.object({ blockReason: z.string().optional() }).optional(),
});

/** Gemini's generateContent with image output, the photo as inline data. */
export class GeminiEngine implements StagingEngine {
  readonly name = 'gemini';
  readonly chargesPerImage = true;
  readonly model: string;
  private readonly http: HttpClient;

  constructor(private readonly options: RemoteEngineOptions) {
    this.model = options.model;
    this.http = httpClient('gemini', options);
  }

  async stage(input: StageInput): Promise<StageOutput> {
    const prepared = await prepareInput(input.image);
    const prompt = buildStagingPrompt(input.style, input.roomType, input.emphasis, input.look);
    const body = JSON.stringify({
      contents: [{ parts: [{ text: prompt }, { inline_data: { mime_type: prepared.contentType, data: prepared.bytes.toString('base64') } }] }],
      generationConfig: { responseModalities: ['IMAGE'] },
    });
    const answer = await this.http.json(
      {
        method: 'POST',
        url: `${trimBase(this.options.baseUrl)}/v1beta/models/${this.model}:generateContent`,
        headers: { 'x-goog-api-key': this.options.apiKey, 'content-type': 'application/json' },
        body: () => body,
        what: 'generateContent',
      },
      responseSchema,
      input,
    );
    const blockReason = answer.promptFeedback?.blockReason;
    if (blockReason) throw this.http.error('refused', `generateContent: prompt blocked (${blockReason})`, 200);
    const candidate = answer.candidates?.[0];
    const parts = candidate?.content?.parts ?? [];
    const image = parts.map((p) => p.inlineData ?? p.inline_data).find((d) => d && d.data.length > 0);
    if (!image) {
      const reason = candidate?.finishReason ?? 'none';
      const text = parts.map((p) => p.text ?? '').join(' ').trim().slice(0, 200);
      const detail = `generateContent: no image in the answer (finishReason ${reason}${text ? `, text "${text}"` : ''})`;
      throw this.http.error(REFUSAL_REASONS.has(reason) ? 'refused' : 'invalid_response', detail, 200);
    }
    return finishOutput(this.http, decodeBase64Image(this.http, image.data), prepared, this.model, GEMINI_COST_MICROS);
  }
}
