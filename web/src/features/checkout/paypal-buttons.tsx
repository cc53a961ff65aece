import { PayPalButtons, PayPalScriptProvider, usePayPalScriptReducer } from '@paypal/react-paypal-js';
import { PAYMENT_CURRENCY } from '@roomstager/contracts';
import { Component, useEffect, type ReactNode } from 'react';
import { cspStyleNonce } from '../../lib/csp-nonce.ts';
import { createPaypalOrder } from './api.ts';
import { approveWithRestart, PAYMENT_ERRORS, type PaymentHandlers } from './payment-flow.ts';

function Buttons({ handlers }: { handlers: PaymentHandlers }) {
  const [{ isPending, isRejected }] = usePayPalScriptReducer();
  useEffect(() => {
    if (isRejected) handlers.fail(PAYMENT_ERRORS.loadFailed);
  }, [isRejected, handlers]);
  if (isPending || isRejected) return null;
  return (
    <PayPalButtons
      style={{ layout: 'vertical', shape: 'rect', label: 'pay' }}
      onInit={() => handlers.setState('ready')}
      createOrder={async () => {
        try {
          const order = await createPaypalOrder(handlers.pack);
          handlers.setState('order-created');
          return order.id;
        } catch (error) {
          handlers.onPurchaseError(error);
          throw error;
        }
      }}
      // When PayPal declines the funding source at capture, restart lets the buyer choose another.
      onApprove={(data, actions) => approveWithRestart(data.orderID, actions, handlers.complete)}
      onCancel={() => handlers.cancelled()}
      onError={() => handlers.fail(PAYMENT_ERRORS.processingFailed)}
    />
  );
}

/** A button that throws while rendering becomes the render-failed error, not a blank page. */
class RenderGuard extends Component<{ onError: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch() {
    this.props.onError();
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/** PayPal's JavaScript SDK and button, loaded with the client id and the currency. */
export default function PayPalCheckout({ clientId, handlers }: { clientId: string; handlers: PaymentHandlers }) {
  return (
    <RenderGuard onError={() => handlers.fail(PAYMENT_ERRORS.renderFailed)}>
      <PayPalScriptProvider options={{ clientId, currency: PAYMENT_CURRENCY, intent: 'capture', dataCspNonce: cspStyleNonce() ?? undefined }}>
        <Buttons handlers={handlers} />
      </PayPalScriptProvider>
    </RenderGuard>
  );
}
