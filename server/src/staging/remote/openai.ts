import { z } from 'zod';
import type { StageInput, StageOutput, StagingEngine } from '../engine.ts';
import { buildStagingPrompt } from '../prompt.ts';
import { decodeBase64Image, finishOutput, httpClient, trimBase, type RemoteEngineOptions } from './common.ts';
import type { HttpClient } from './http.ts';
import { prepareInput } from './image.ts';

export const OPENAI_DEFAULT_MODEL = 'gpt-image-1';
export const OPENAI_QUALITIES = ['low', 'medium', 'high'] as const;
export type OpenAiQuality = (typeof OPENAI_QUALITIES)[number];

/** Published price of one gpt-image-1 edit at 1024 px, per quality (late 2026), in micro-dollars. */
export const OPENAI_COST_MICROS: Readonly<Record<OpenAiQuality, number>> = { low: 11_000, medium: 42_000, high: 167_000 };

const responseSchema = z.object({
  created: z.number().optional(),
  data: z.array(z.object({ b64_json: z.string().min(1) })).min(1),
  usage: z.unknown().optional(),
});

/** The output size closest to the photo's orientation. */
export function openAiSize(width: number, height: number): '1024x1024' | '1536x1024' | '1024x1536' {
  const ratio = width / height;
  if (ratio >= 1.2) return '1536x1024';
  if (ratio <= 1 / 1.2) return '1024x1536';
  return '1024x1024';
}

/** OpenAI's image edit endpoint (POST /v1/images/edits, multipart), the photo as the image. */
export class OpenAiEngine implements StagingEngine {
  readonly name = 'openai';
  readonly chargesPerImage = true;
  readonly model: string;
  private readonly http: HttpClient;

  constructor(
    private readonly options: RemoteEngineOptions & { quality?: OpenAiQuality },
  ) {
    this.model = options.model;
    this.http = httpClient('openai', options);
  }

  get quality(): OpenAiQuality {
    return this.options.quality ?? 'medium';
  }

  async stage(input: StageInput): Promise<StageOutput> {
    const prepared = await prepareInput(input.image);
    const prompt = buildStagingPrompt(input.style, input.roomType, input.emphasis, input.look);
    const size = openAiSize(prepared.width, prepared.height);
    const answer = await this.http.json(
      {
        method: 'POST',
        url: `${trimBase(this.options.baseUrl)}/v1/images/edits`,
        headers: { authorization: `Bearer ${this.options.apiKey}` },
        body: () => {
          const form = new FormData();
          form.append('model', this.model);
          form.append('image', new Blob([prepared.bytes], { type: prepared.contentType }), 'photo.jpg');
          form.append('prompt', prompt);
          form.append('size', size);
          form.append('quality', this.quality);
          form.append('n', '1');
          return form;
        },
        what: 'image edit',
        classify: (status, body) => {
          const err = (body as { error?: { code?: unknown; type?: unknown } } | undefined)?.error;
          if (status === 400 && (err?.code === 'moderation_blocked' || err?.type === 'image_generation_user_error')) return 'refused';
          return undefined;
        },
      },
      responseSchema,
      input,
    );
    const image = decodeBase64Image(this.http, answer.data[0]!.b64_json);
    return finishOutput(this.http, image, prepared, this.model, OPENAI_COST_MICROS[this.quality]);
  }
}
