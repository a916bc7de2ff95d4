/**
 * Desktop to phone (docs/hosted-pages.md): the offer on a desktop's page (a QR code of a single-use link, hidden on
 * phones by the stylesheet), and the desktop's page once a phone took the flow over: it takes no input any more and
 * follows the payment to its outcome.
 */
import QRCode from 'qrcode';
import { html, SafeHtml } from '../html.js';
import { layout } from '../layout/layout.js';
import type { PageContext } from '../layout/page-context.js';

/** The QR code of a link as inline SVG (our CSP allows no image from elsewhere, and the link must not be in a URL). */
export async function qrCodeSvg(url: string): Promise<SafeHtml> {
  const svg = await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  // The library's own markup of our own link: no text of anyone else's is in it.
  return new SafeHtml(svg.replace('<svg ', '<svg aria-hidden="true" focusable="false" '));
}

/** The offer beside the page's own content; shown on wide screens only (a phone is where the payer would go). */
export function handoverOffer(context: PageContext, qr: SafeHtml): SafeHtml {
  const { t } = context;
  return html`<aside class="handover" aria-labelledby="handover-heading"><h2 id="handover-heading">${t('handover.offerHeading')}</h2><div class="handover-body"><div class="qr" role="img" aria-label="${t('handover.qrLabel')}">${qr}</div><div><p>${t('handover.offerIntro')}</p><p class="hint">${t('handover.offerNote')}</p></div></div></aside>`;
}

/** The desktop's page once a phone took the flow over: no form, it follows the payment to the outcome. */
export function takenOverPage(context: PageContext): string {
  const { t } = context;
  return layout(context, {
    heading: t('handover.takenHeading'),
    waiting: true,
    cancel: false,
    back: false,
    body: html`<p class="lead">${t('handover.takenLead')}</p><p>${t('handover.takenIntro')}</p>`,
  });
}
