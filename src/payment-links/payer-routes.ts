/**
 * The payer's page of a payment link (`GET /link/:slug`) and its "Continue to pay" (`POST /link/:slug/continue`),
 * beside the payer's pages of payments and built of the same parts (src/hosted: layout, merchant branding, headers,
 * CSRF, error pages). Continuing starts a payment of the link with this payer's IP address and browser, then sends
 * them to its flow (`/pay/<token>`), the hosted flow every payment has. docs/api-decisions.md, "Payment links", says
 * what a payer sees when the link is closed or a single-use link is being paid by someone else.
 *
 * The link page has no payment yet to keep a CSRF key in (the payment pages keep theirs in the flow state), so the
 * page key is a random cookie of the page (HttpOnly, SameSite=Lax, path of the link), and the form carries its HMAC
 * (src/hosted/security.ts): another site can neither read the cookie nor make the token. Cross-site posts are refused
 * by Fetch Metadata and Origin as on every payer page. A second cookie keeps the flow token of the payment this
 * browser started, so a payer who opens the link again goes back to their own payment.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { clientLogoPath, type ClientBrandingStore } from '../branding/client-branding.js';
import type { OperatorIdentity } from '../config/config.js';
import { isFinal } from '../domain/detailed-status.js';
import { payerVisibleText } from '../domain/display-text.js';
import { freshFlow } from '../domain/fresh-flow.js';
import { newRecordId } from '../domain/ids.js';
import type { Payment } from '../domain/payment.js';
import type { PaymentLink } from '../domain/payment-link.js';
import { psuIpAddressOf } from '../domain/psu-address.js';
import type { FlowEngine } from '../flow/engine.js';
import type { PaymentLinkStore } from '../flow/payment-link-store.js';
import { queryText, requestLocale, sendExpiredForm, sendInvalidLink, sendPage } from '../hosted/answers.js';
import { hostedErrorHandler } from '../hosted/error-handler.js';
import { html } from '../hosted/html.js';
import { consentLine, layout, postForm } from '../hosted/layout/layout.js';
import type { MerchantView, PageContext } from '../hosted/layout/page-context.js';
import { brandStylesheetPath } from '../hosted/layout/styles.js';
import { csrfToken, csrfValid, newPageKey, pageHeaders, payerCookie, sameOriginPost, setPayerCookie } from '../hosted/security.js';
import type { AppPlugin } from '../http/root-plugin.js';
import { isSupportedLocale, localeFromAcceptLanguage, type Locale } from '../i18n/locale.js';
import { translator, type MessageKey } from '../i18n/messages.js';

export interface LinkPayerRoutesOptions {
  readonly links: PaymentLinkStore;
  /** Finds the payment of this browser's cookie by its flow token. */
  readonly engine: Pick<FlowEngine, 'loadByFlowToken'>;
  readonly branding: ClientBrandingStore;
  readonly operator: OperatorIdentity;
  readonly baseUrl: string;
  /** How long a payer's flow may take before it expires (config `FLOW_DEADLINE_SECONDS`). */
  readonly flowDeadlineSeconds: number;
  readonly now: () => Date;
}

const SLUG_PATTERN = '^[A-Za-z0-9_-]{22}$';
const LinkParams = Type.Object({ slug: Type.String({ pattern: SLUG_PATTERN }) });
const LinkQuery = Type.Object({ lang: Type.Optional(Type.Unknown()) });
const PostedForm = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

const CONTINUE = 'continue';
/** The page's CSRF key (a random value per browser and link). */
const PAGE_KEY_COOKIE = 'openpis_link_key';
/** The flow token of the payment this browser started from the link. */
const OWN_PAYMENT_COOKIE = 'openpis_link_payment';
/** Both cookies live as long as a link may (90 days) at most; a link's page outlives neither need. */
const COOKIE_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;
const USER_AGENT_MAX_LENGTH = 1024;

function linkPath(link: Pick<PaymentLink, 'slug'>): string {
  return `/link/${link.slug}`;
}

/** The action the page's form posts to, per link: a token of one link's page is no good on another's. */
function csrfAction(slug: string): string {
  return `link:${slug}:${CONTINUE}`;
}

export const linkPayerRoutes: AppPlugin<LinkPayerRoutesOptions> = async (scope, options) => {
  const { links, engine, branding, operator, baseUrl } = options;
  const secure = baseUrl.startsWith('https:');
  scope.setErrorHandler(hostedErrorHandler(operator, (request, reply) => sendInvalidLink(request, reply, operator)));

  async function merchantOf(link: PaymentLink): Promise<MerchantView> {
    const brand = await branding.get(link.clientId);
    return {
      name: payerVisibleText(brand?.displayName ?? link.recipient.name),
      logo:
        brand?.logo === undefined
          ? undefined
          : { path: clientLogoPath(brand.logo.sha256), width: brand.logo.width, height: brand.logo.height },
      supportUrl: brand?.supportUrl,
      stylesheetPath: brand?.brandColour === undefined ? undefined : brandStylesheetPath(brand.brandColour),
    };
  }

  function localeOf(request: FastifyRequest): Locale {
    const asked = queryText(request, 'lang');
    return asked !== undefined && isSupportedLocale(asked) ? asked : requestLocale(request);
  }

  async function contextOf(request: FastifyRequest, link: PaymentLink, pageKey: string): Promise<PageContext> {
    const locale = localeOf(request);
    const merchant = await merchantOf(link);
    return {
      locale,
      t: translator(locale),
      flowUrl: linkPath(link),
      csrf: (action) => csrfToken(pageKey, action === CONTINUE ? csrfAction(link.slug) : action),
      summary: {
        amount: link.amount,
        currency: link.currency,
        merchant: merchant.name,
        recipientName: payerVisibleText(link.recipient.name),
        recipientAccount: { iban: link.recipient.account.number.value },
        reference: payerVisibleText(link.remittance.value),
        bankName: undefined,
        fromIban: undefined,
      },
      merchant,
      operator,
      sandbox: link.environment === 'sandbox',
      canGoBack: false,
      twoLogins: false,
      errors: [],
      notice: undefined,
      liveView: '',
    };
  }

  /** The link's page: its payment and "Continue to pay", with a page key for the form's token. */
  async function showLink(request: FastifyRequest, reply: FastifyReply, link: PaymentLink): Promise<FastifyReply> {
    const pageKey = newPageKey();
    setPayerCookie(reply, { name: PAGE_KEY_COOKIE, value: pageKey, path: linkPath(link), maxAgeSeconds: COOKIE_MAX_AGE_SECONDS }, secure);
    const context = await contextOf(request, link, pageKey);
    const { t } = context;
    const body = html`<p>${t('link.intro')}</p>${postForm(
      context,
      CONTINUE,
      html`${consentLine(context)}<button type="submit" class="primary" id="continue">${t('link.continue')}</button>`,
    )}`;
    return sendPage(reply, 200, layout(context, { heading: t('link.heading'), body, cancel: false, back: false }));
  }

  /** A page that says why the link takes no payment now (closed, or being paid by someone else). */
  async function showNotice(
    request: FastifyRequest,
    reply: FastifyReply,
    link: PaymentLink,
    status: number,
    heading: MessageKey,
    intro: MessageKey,
    mark?: 'done' | 'failed',
  ): Promise<FastifyReply> {
    const context = await contextOf(request, link, '');
    const { t } = context;
    return sendPage(
      reply,
      status,
      layout(context, {
        heading: t(heading),
        body: html`<p>${t(intro)}</p>`,
        cancel: false,
        back: false,
        summary: link.status === 'ACTIVE',
        ...(mark === undefined ? {} : { mark }),
      }),
    );
  }

  function showClosed(request: FastifyRequest, reply: FastifyReply, link: PaymentLink): Promise<FastifyReply> {
    switch (link.status) {
      case 'PAID':
        return showNotice(request, reply, link, 410, 'link.paid.heading', 'link.paid.intro', 'done');
      case 'EXPIRED':
        return showNotice(request, reply, link, 410, 'link.expired.heading', 'link.expired.intro');
      default:
        return showNotice(request, reply, link, 410, 'link.deactivated.heading', 'link.deactivated.intro');
    }
  }

  /** The open payment this browser started from the link, if its cookie names one. */
  async function ownOpenPayment(request: FastifyRequest, link: PaymentLink): Promise<Payment | undefined> {
    const token = payerCookie(request, OWN_PAYMENT_COOKIE);
    if (token === undefined) return undefined;
    const payment = await engine.loadByFlowToken(token);
    return payment !== undefined && payment.paymentLinkId === link.id && !isFinal(payment.detailedStatus) ? payment : undefined;
  }

  function toFlow(reply: FastifyReply, payment: Payment): FastifyReply {
    return pageHeaders(reply).code(303).header('Location', `/pay/${payment.flowToken}`).send();
  }

  /** The payment a payer starts from the link: hosted bank selection unless the link names the bank. */
  function paymentOf(request: FastifyRequest, link: PaymentLink, endToEndId: string): Payment {
    const mode = link.providerId === null ? 'hosted' : 'custom';
    const userAgent = request.headers['user-agent'];
    const locale = localeFromAcceptLanguage(request.headers['accept-language']);
    return {
      id: newRecordId(),
      clientId: link.clientId,
      environment: link.environment,
      endToEndId,
      mode,
      providerId: link.providerId,
      providerPreferences: link.providerPreferences,
      paymentScheme: link.paymentScheme,
      schemeMode: link.schemeMode,
      feePaidBy: link.feePaidBy,
      amount: link.amount,
      currency: link.currency,
      sender: null,
      recipient: link.recipient,
      remittance: link.remittance,
      redirectUri: link.redirectUri,
      webhookUrl: link.webhookUrl,
      // The payer's own address and browser, from their request (the banks ask for them).
      psuIpAddress: psuIpAddressOf(request.ip) ?? '0.0.0.0',
      psuUserAgent: userAgent === undefined || userAgent === '' ? 'unknown' : userAgent.slice(0, USER_AGENT_MAX_LENGTH),
      locale: locale ?? null,
      // The flow every new payment starts with, as the API's payments, retries and refunds do.
      ...freshFlow(mode, options.now(), options.flowDeadlineSeconds),
      retryOf: null,
      retryAllowed: mode === 'hosted',
      paymentLinkId: link.id,
      refundOf: null,
    };
  }

  scope.get('/link/:slug', { schema: { hide: true, params: LinkParams, querystring: LinkQuery } }, async (request, reply) => {
    const found = await links.findBySlug(request.params.slug);
    if (found === undefined) return sendInvalidLink(request, reply, operator);
    const link = await links.current(found);
    // A payer who started a payment here goes back to it while it is open.
    const own = await ownOpenPayment(request, link);
    if (own !== undefined) return toFlow(reply, own);
    if (link.status !== 'ACTIVE') return showClosed(request, reply, link);
    if (!link.reusable && link.openPaymentId !== null) {
      const open = await links.paymentOfLink(link, link.openPaymentId);
      if (open !== undefined && !isFinal(open.detailedStatus))
        return showNotice(request, reply, link, 200, 'link.busy.heading', 'link.busy.intro');
    }
    return showLink(request, reply, link);
  });

  scope.post(
    '/link/:slug/continue',
    {
      schema: { hide: true, params: LinkParams, body: PostedForm },
      bodyLimit: 16 * 1024,
    },
    async (request, reply) => {
      const form = request.body ?? {};
      if (
        !sameOriginPost(request, baseUrl) ||
        !csrfValid(payerCookie(request, PAGE_KEY_COOKIE), csrfAction(request.params.slug), form['csrf'])
      ) {
        request.log.warn({ slug: request.params.slug }, 'payment link form refused: missing or wrong CSRF token, or cross-site post');
        return sendExpiredForm(reply, localeOf(request), operator);
      }
      const link = await links.findBySlug(request.params.slug);
      if (link === undefined) return sendInvalidLink(request, reply, operator);
      const own = await ownOpenPayment(request, link);
      if (own !== undefined) return toFlow(reply, own);
      const started = await links.startPayment(link, (current, endToEndId) => paymentOf(request, current, endToEndId));
      switch (started.kind) {
        case 'started':
          request.log.info({ paymentLinkId: link.id, paymentId: started.payment.id }, 'payment started from a payment link');
          setPayerCookie(
            reply,
            { name: OWN_PAYMENT_COOKIE, value: started.payment.flowToken, path: linkPath(link), maxAgeSeconds: COOKIE_MAX_AGE_SECONDS },
            secure,
          );
          return toFlow(reply, started.payment);
        case 'closed':
          return showClosed(request, reply, started.link);
        case 'busy':
          return showNotice(request, reply, link, 409, 'link.busy.heading', 'link.busy.intro');
      }
    },
  );
};
