import { escapeHtml } from '../../html.ts';
import type { SimOrder } from './state.ts';

/** The simulator's pages: its approval page stands in for PayPal's checkout window. */
export const STYLESHEET = `*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:28rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem}
h1{font-size:1.5rem;margin:0 0 .5rem}
p{color:#475569;line-height:1.5}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:1rem 0}
dt{font-weight:600}
dd{margin:0}
.notice{background:#fef9c3;border:1px solid #facc15;border-radius:.5rem;padding:.5rem .75rem;color:#713f12}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;padding:.7rem;font-size:1rem;font-weight:600;border-radius:.5rem;cursor:pointer;border:1px solid #1d4ed8}
button:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
.approve{color:#fff;background:#1d4ed8}
.approve:hover{background:#1e40af}
.cancel{color:#1d4ed8;background:#fff}
.error{color:#b91c1c;font-weight:600}
`;

/** The short pages after the buyer's choice, or for an order that does not exist. */
export const PAGE_BODIES = {
  missing: '<h1>PayPal simulator</h1>\n  <p class="error" role="alert">This order does not exist.</p>',
  approved: '<h1>Payment approved</h1>\n  <p role="status">You can close this window and return to RoomStager.</p>',
  cancelled: '<h1>Payment cancelled</h1>\n  <p role="status">You can close this window and return to RoomStager.</p>',
} as const;

/** The approval page's body for an order: what is bought, and Approve (only while approvable) or Cancel. */
export function approvalPageBody(order: Readonly<SimOrder>, basePath: string): string {
  const { unit } = order;
  const approvable = order.status === 'CREATED' || order.status === 'PAYER_ACTION_REQUIRED';
  const state = approvable
    ? ''
    : `<p class="notice" role="status">This order is ${escapeHtml(order.status.toLowerCase())}; there is nothing to approve.</p>`;
  return `<h1>PayPal simulator</h1>
  <p class="notice">Development only: no money moves. This page stands in for PayPal's checkout window.</p>
  <dl>
    <dt>Item</dt><dd>${escapeHtml(unit.description ?? unit.reference_id)}</dd>
    <dt>Total</dt><dd>${escapeHtml(`${unit.amount.value} ${unit.amount.currency_code}`)}</dd>
    <dt>Order</dt><dd>${escapeHtml(order.id)}</dd>
  </dl>
  ${state}
  <form method="post" action="${escapeHtml(`${basePath}/checkoutnow`)}">
    <input type="hidden" name="token" value="${escapeHtml(order.id)}">
    <div class="actions">
      <button class="approve" type="submit" name="action" value="approve"${approvable ? '' : ' disabled'}>Approve</button>
      <button class="cancel" type="submit" name="action" value="cancel">Cancel</button>
    </div>
  </form>`;
}
