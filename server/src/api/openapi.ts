import { API_KEY_PREFIX, apiErrorSchema, IDEMPOTENCY_KEY_HEADER, V1_OPERATIONS, WEBHOOK_SIGNATURE_HEADER, webhookEventSchema, type ApiOperation } from '@roomstager/contracts';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * The OpenAPI 3.1 document of /api/v1, generated from `V1_OPERATIONS` and the zod schemas the
 * handlers validate with (zod's own JSON Schema output, draft 2020-12 as OpenAPI 3.1 uses), so it
 * cannot say something the handlers do not do. Named schemas (`.meta({ id })`) become components.
 */
export function buildOpenApiDocument(origin: string): JsonSchema {
  const components: Record<string, JsonSchema> = {};
  const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    // zod names the shared definitions $defs; the document keeps them once, as components.
    const text = JSON.stringify(z.toJSONSchema(schema, { io, unrepresentable: 'any' })).replaceAll('"#/$defs/', '"#/components/schemas/');
    const { $schema: _draft, $defs, ...root } = JSON.parse(text) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    Object.assign(components, $defs);
    return root;
  };
  /** An object schema's properties as parameters `in` the path, query or headers. */
  const parameters = (schema: z.ZodType | undefined, where: 'path' | 'query' | 'header') => {
    if (!schema) return [];
    const { properties = {}, required = [] } = schemaOf(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    return Object.entries(properties).map(([name, property]) => ({
      name: where === 'header' && name === IDEMPOTENCY_KEY_HEADER.toLowerCase() ? IDEMPOTENCY_KEY_HEADER : name,
      in: where,
      required: where === 'path' || required.includes(name),
      schema: property,
      ...(where === 'header' && name === IDEMPOTENCY_KEY_HEADER.toLowerCase()
        ? { description: 'A replay with the same key and body answers the first result and changes nothing; the same key with another body is a 422 IDEMPOTENCY_KEY_REUSED.' }
        : {}),
    }));
  };
  const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: schemaOf(apiErrorSchema, 'output') } } });
  /** A body as JSON and, where the operation takes one, as a multipart form with a file. */
  const requestContent = (operation: ApiOperation & { body: z.ZodType }) => ({
    'application/json': { schema: schemaOf(operation.body, 'input') },
    ...(operation.multipartFile
      ? {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: { [operation.multipartFile.field]: { type: 'string', contentMediaType: 'application/octet-stream', description: operation.multipartFile.description } },
              required: [operation.multipartFile.field],
            },
          },
        }
      : {}),
  });
  const rateLimitHeaders = {
    'RateLimit-Policy': { description: 'The key\'s limit, e.g. `"per-key";q=120;w=60`', schema: { type: 'string' } },
    RateLimit: { description: 'Calls left in the window and seconds to its end, e.g. `"per-key";r=119;t=60`', schema: { type: 'string' } },
  };

  const paths: Record<string, Record<string, unknown>> = {
    '/api/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This document',
        security: [],
        responses: { 200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  };
  for (const [operationId, operation] of Object.entries(V1_OPERATIONS) as Array<[string, ApiOperation]>) {
    const responses: Record<string, unknown> = {};
    for (const [status, { description, schema }] of Object.entries(operation.responses)) {
      responses[status] = {
        description,
        headers: rateLimitHeaders,
        ...(schema === 'binary'
          ? { content: { 'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } } } }
          : schema
            ? { content: { 'application/json': { schema: schemaOf(schema, 'output') } } }
            : {}),
      };
    }
    Object.assign(responses, {
      400: errorResponse('Invalid request (BAD_REQUEST), with details per field'),
      401: errorResponse('Missing, unknown or revoked key (INVALID_API_KEY)'),
      403: errorResponse('The account does not hold the Enterprise pack (ENTERPRISE_REQUIRED)'),
      404: errorResponse('No such resource of this account (NOT_FOUND)'),
      429: errorResponse('Over the key\'s rate limit (RATE_LIMITED); see Retry-After'),
      ...(operation.method === 'post' ? { 422: errorResponse('Unprocessable: IDEMPOTENCY_KEY_REUSED, an image the service cannot read or size, WEBHOOK_URL_NOT_ALLOWED') } : {}),
      ...(operationId === 'createJob' ? { 402: errorResponse('No credits left (INSUFFICIENT_CREDITS)') } : {}),
    });
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method]: {
        operationId,
        summary: operation.summary,
        ...(operation.description ? { description: operation.description } : {}),
        parameters: [...parameters(operation.params, 'path'), ...parameters(operation.query, 'query'), ...parameters(operation.headers, 'header')],
        ...(operation.body ? { requestBody: { required: true, content: requestContent({ ...operation, body: operation.body }) } } : {}),
        responses,
      },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'RoomStager API',
      version: '1',
      description: `Virtual staging from your own systems, for accounts with the Enterprise pack. Authenticate every call with \`Authorization: Bearer ${API_KEY_PREFIX}...\` (keys are made on /api-keys). Each job costs one credit, refunded if it fails. Guide with curl examples: ${origin}/docs/api`,
    },
    servers: [{ url: origin }],
    security: [{ bearerKey: [] }],
    paths,
    webhooks: {
      jobEnded: {
        post: {
          summary: 'A job created with webhookUrl completed or failed',
          description: `Signed with your account's webhook secret: header \`${WEBHOOK_SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`. Answer 2xx; anything else, or no answer within 10 s, is retried with backoff for a day. Redirects are not followed.`,
          parameters: [{ name: WEBHOOK_SIGNATURE_HEADER, in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: schemaOf(webhookEventSchema, 'output') } } },
          responses: { 200: { description: 'Received' } },
        },
      },
    },
    components: {
      securitySchemes: { bearerKey: { type: 'http', scheme: 'bearer', description: `An API key, ${API_KEY_PREFIX} and 43 more characters` } },
      schemas: components,
    },
  };
}
