import { packByPrice, paypalOrderRequestSchema, type PaymentOrderResponse, type PaymentResult, type PaypalClientIdResponse } from '@roomstager/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { BadRequestError, RateLimitedError } from '../../domain/errors.ts';
import { requireUser } from '../session.ts';
import { parseInput } from '../validation.ts';

/** PayPal's webhook bodies are small; a larger one is not PayPal's. */
const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;
const ORDER_ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

/** Per-user rate limit of a payment route (order creation; capture and confirmation). */
export function paymentRateLimit(bucket: string, max: number) {
  return {
    max,
    timeWindow: 60_000,
    keyGenerator: async (req: FastifyRequest) => `${bucket}:${(await req.resolveUser())?.id ?? req.ip}`,
    // Thrown by the plugin; a RateLimitedError reaches the one error handler as {message, error}.
    errorResponseBuilder: (_req: FastifyRequest, context: { ttl: number }) =>
      new RateLimitedError(`Too many payment requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`),
  };
}

export function parseOrderId(value: unknown): string {
  if (typeof value !== 'string' || !ORDER_ID_PATTERN.test(value)) throw new BadRequestError('Invalid order id');
  return value;
}

/** The checkout page's PayPal calls (client id, order, capture) and PayPal's webhook. */
export function paypalRoutes(app: FastifyInstance, { payments, config }: Container): void {
  app.get('/api/paypal/client-id', async (_req, reply) => {
    const answer: PaypalClientIdResponse = payments.clientInfo();
    return reply.send(answer);
  });

  app.post(
    '/api/paypal/order',
    { config: { rateLimit: paymentRateLimit('paypal-order', config.PAYMENT_RATE_LIMIT) } },
    async (req, reply) => {
      const user = await requireUser(req);
      const input = parseInput(paypalOrderRequestSchema, req.body ?? {});
      const pack = packByPrice(input.amount);
      // The schema admits only pack prices; this is the same rule, stated once more for the type.
      if (!pack) throw new BadRequestError('Unknown credit package');
      const answer: PaymentOrderResponse = await payments.createOrder(user.id, pack.id, req.log);
      return reply.code(201).send({ id: answer.id });
    },
  );

  app.post<{ Params: { orderID: string } }>(
    '/api/paypal/order/:orderID/capture',
    { config: { rateLimit: paymentRateLimit('paypal-capture', config.PAYMENT_RATE_LIMIT) } },
    async (req, reply) => {
      const user = await requireUser(req);
      const orderId = parseOrderId(req.params.orderID);
      const answer: PaymentResult = await payments.settle(user.id, orderId, req.log);
      return reply.send(answer);
    },
  );

  // PayPal's webhook: no session, no same-origin request; PayPal's signature protects it. Its
  // body is kept as the exact bytes received, which verification needs.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_req, body, done) => done(null, body));
    scope.post('/api/paypal/webhook', { config: { crossSiteExempt: true } }, async (req, reply) => {
      const raw = typeof req.body === 'string' ? req.body : '';
      const outcome = await payments.handleWebhook(raw, req.headers, req.log);
      return reply.send({ received: true, outcome });
    });
  });
}
