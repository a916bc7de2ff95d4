/**
 * The shop's pages: plain server-rendered HTML with one stylesheet of its own, no script and nothing from other
 * hosts (the Content-Security-Policy in shop.ts says so to the browser). Every value is escaped on the way in.
 */
import type { Order, Product } from './orders.js';

/** Escapes text for HTML content and quoted attribute values. */
function escape(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Minor units as a decimal amount: 1050 → "10.50". Integer arithmetic only. */
export function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)} – Example Shop</title><link rel="stylesheet" href="/styles.css"></head>
<body><header><a href="/">Example Shop</a></header><main><h1>${escape(title)}</h1>
${body}</main></body></html>`;
}

export function productsPage(products: readonly Product[]): string {
  const rows = products
    .map(
      (
        product,
      ) => `<li><label for="qty-${escape(product.id)}">${escape(product.name)} <span class="price">EUR ${formatCents(product.priceCents)}</span></label>
<input type="number" id="qty-${escape(product.id)}" name="${escape(product.id)}" min="0" max="9" value="0" inputmode="numeric"></li>`,
    )
    .join('\n');
  return page(
    'Our products',
    `<form method="post" action="/cart"><ul class="products">${rows}</ul><button type="submit">Go to checkout</button></form>`,
  );
}

export function cartPage(order: Order, problem?: string): string {
  const lines = order.lines
    .map(
      (line) =>
        `<tr><td>${escape(line.product.name)}</td><td>${line.quantity}</td><td>EUR ${formatCents(line.product.priceCents * line.quantity)}</td></tr>`,
    )
    .join('\n');
  return page(
    'Your cart',
    `${problem === undefined ? '' : `<p class="problem" role="alert">${escape(problem)}</p>`}
<table><thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col">Price</th></tr></thead>
<tbody>${lines}</tbody><tfoot><tr><th scope="row" colspan="2">Total</th><td>EUR ${formatCents(order.totalCents)}</td></tr></tfoot></table>
<form method="post" action="/orders/${escape(order.id)}/pay"><button type="submit">Pay by bank</button></form>`,
  );
}

/** The order after the payer came back: success only once openpis says COMPLETED. */
export function orderPage(order: Order): string {
  switch (order.state) {
    case 'paid':
      return page(
        'Thank you, your payment is complete',
        `<p class="paid">We received EUR ${formatCents(order.totalCents)} for order ${escape(order.id)}.</p>`,
      );
    case 'failed':
      return page(
        'Your payment did not go through',
        `<p>The bank did not complete the payment${order.failure === undefined ? '' : ` (${escape(order.failure)})`}. Nothing was charged.</p>
<form method="post" action="/orders/${escape(order.id)}/pay"><button type="submit">Try again</button></form>`,
      );
    case 'cart':
      return cartPage(order);
    case 'awaiting-payment':
      // The payer's return proves nothing: this page is reloaded (the shop's `Refresh` header, no script) until
      // openpis reports a final status.
      return page(
        'We are confirming your payment',
        `<p class="processing">Your bank has not confirmed the payment yet. This page updates by itself, or <a href="/orders/${escape(order.id)}">check again</a>.</p>`,
      );
  }
}

export function notFoundPage(): string {
  return page('Not found', '<p>There is no such order.</p>');
}

export const STYLES = `body{font-family:system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fafafa}
header{background:#12355b;padding:.75rem 1rem}header a{color:#fff;text-decoration:none;font-weight:600}
main{max-width:40rem;margin:1.5rem auto;padding:0 1rem}ul.products{list-style:none;padding:0}
ul.products li{display:flex;justify-content:space-between;align-items:center;padding:.5rem 0;border-bottom:1px solid #ddd}
input[type=number]{width:4rem;font-size:1rem}button{background:#12355b;color:#fff;border:0;padding:.6rem 1.2rem;font-size:1rem;border-radius:4px;cursor:pointer;margin-top:1rem}
table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}
.problem{color:#a40000}.paid{color:#0b6b2b}.price{color:#555;margin-left:.5rem}`;
