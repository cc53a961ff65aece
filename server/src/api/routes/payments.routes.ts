import { createOrderRequestSchema, paypalSuccessRequestSchema, type PaymentOrderResponse, type PaymentResult } from '@roomstager/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { requireUser } from '../session.ts';
import { parseInput } from '../validation.ts';
import { parseOrderId, paymentRateLimit } from './paypal.routes.ts';

/** The payments calls: the browser's confirmation after capture, and an order by pack name. */
export function paymentsRoutes(app: FastifyInstance, { payments, config }: Container): void {
  app.post(
    '/api/payments/paypal-success',
    { config: { rateLimit: paymentRateLimit('paypal-success', config.PAYMENT_RATE_LIMIT) } },
    async (req, reply) => {
      const user = await requireUser(req);
      // captureData is accepted and ignored: what counts is what PayPal tells the server.
      const input = parseInput(paypalSuccessRequestSchema, req.body ?? {});
      const answer: PaymentResult = await payments.settle(user.id, parseOrderId(input.orderID), req.log);
      return reply.send(answer);
    },
  );

  app.post(
    '/api/payments/create-order',
    { config: { rateLimit: paymentRateLimit('paypal-order', config.PAYMENT_RATE_LIMIT) } },
    async (req, reply) => {
      const user = await requireUser(req);
      const input = parseInput(createOrderRequestSchema, req.body ?? {});
      const answer: PaymentOrderResponse = await payments.createOrder(user.id, input.creditPackage, req.log);
      return reply.code(201).send(answer);
    },
  );
}
