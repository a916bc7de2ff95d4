/**
 * The payer's pages: `GET /pay/:flowToken` shows the page of the payment's current step (or sends the payer back
 * to the shop once the flow has left the payer's hands), `POST /pay/:flowToken/:action` takes the payer's
 * input, `/pay/return/:paymentId/:secret` is our callback for the bank's redirect (GET, or POST for banks that
 * post their answer as a form), and `/pay/return` our one fixed return URL for banks that accept only registered
 * redirect URIs (the payment is found by `state`). Hidden from the API document. See docs/hosted-pages.md.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { payerVisibleText } from '../domain/display-text.js';
import type { BankReturn } from '../connectors/index.js';
import { isWaiting, type ActionOutcome, type Actor, type FlowEngine, type InputError, type Notice } from '../flow/engine.js';
import { flowStateOf } from '../flow/flow-state.js';
import { REGISTERED_RETURN_PATH } from '../flow/steps/callback.js';
import type { App } from '../http/fastify-types.js';
import { isSupportedLocale, localeFromAcceptLanguage, type Locale } from '../i18n/locale.js';
import { translator } from '../i18n/messages.js';
import type { Payment } from '../domain/payment.js';
import { browserLocale, errorPage, expiredFormPage, invalidLinkPage } from './errors/page.js';
import { brandColourOfPath, brandStylesheet, brandStylesheetPath, HOSTED_CSS, HOSTED_CSS_PATH } from './layout/styles.js';
import { BANK_FILTER_SCRIPT, BANK_FILTER_SCRIPT_PATH } from './bank-selection/filter-script.js';
import { clientLogoPath, type ClientBrandingStore } from '../branding/client-branding.js';
import { buttonColours } from '../branding/colour.js';
import type { OperatorIdentity } from '../config/config.js';
import { frontDoorPage } from './front-door/page.js';
import type { MerchantView, PageContext, PaymentSummaryView } from './layout/page-context.js';
import { FAVICON_PATH, FAVICON_SVG } from './layout/favicon.js';
import { HOSTED_JS, HOSTED_JS_PATH } from './layout/script.js';
import { clientReturnUrl, flowIsOverForPayer } from './outcome/step.js';
import { actionHandler, currentStep } from './payer-steps.js';
import { FRAGMENT_RETURN_CSP, fragmentReturnPage } from './return/page.js';
import { csrfToken, csrfValid, newPageKey, pageHeaders, sameOriginPost } from './security.js';
import type { StepInput } from './step.js';

export interface HostedRoutesOptions {
  readonly engine: FlowEngine;
  readonly baseUrl: string;
  /** Clients' branding: the merchant on every page, and the logos we serve. */
  readonly branding: ClientBrandingStore;
  /** The operator of this service, as payers see it (config `OPERATOR_*`). */
  readonly operator: OperatorIdentity;
  /** The sandbox banks' index, linked from the front door (undefined: none to show). */
  readonly sandboxBankUrl?: string;
  /** The operators' console, linked from the front door once there is one. */
  readonly consoleUrl?: string;
}

const FLOW_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A step's action name (the registry decides which exist). */
const ACTION_NAME = /^[a-z][a-z-]{0,31}$/;

type Form = Readonly<Record<string, unknown>>;

function text(form: Form, name: string): string | undefined {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
}

function queryText(request: FastifyRequest, name: string): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const value = query?.[name];
  return typeof value === 'string' && value.length <= 200 ? value : undefined;
}

/** Longest value of a bank's return we pass on (tokens of OAuth answers fit well within it). */
const MAX_RETURN_VALUE_LENGTH = 8192;

/** The string parameters of a query or a form (repeated or non-string ones are not a bank's answer: dropped). */
function stringParameters(source: unknown, ours: readonly string[] = []): Record<string, string> {
  const result: Record<string, string> = {};
  if (typeof source !== 'object' || source === null) return result;
  for (const [name, value] of Object.entries(source)) {
    if (typeof value === 'string' && value.length <= MAX_RETURN_VALUE_LENGTH && !ours.includes(name)) result[name] = value;
  }
  return result;
}

export { clientReturnUrl };

/** The payer's view now: a waiting page's script reloads when it changes. */
function liveViewOf(stepName: string, payment: Payment): string {
  return `${stepName}:${payment.detailedStatus}`;
}

export function registerHostedRoutes(app: App, options: HostedRoutesOptions): void {
  const { engine, baseUrl, branding, operator } = options;
  const hidden = { schema: { hide: true } };

  const sendPage = (reply: FastifyReply, status: number, body: string): FastifyReply =>
    pageHeaders(reply).code(status).type('text/html; charset=utf-8').send(body);

  const actorOf = (request: FastifyRequest): Actor => ({ log: request.log, requestId: request.id });

  const localeOf = (request: FastifyRequest, payment: Payment): Locale => {
    // A finished payment's language is not stored any more: the switch applies to the page asked for.
    const asked = queryText(request, 'lang');
    if (asked !== undefined && isSupportedLocale(asked)) return asked;
    const stored = payment.locale;
    return stored !== null && isSupportedLocale(stored) ? stored : browserLocale(request.headers['accept-language']);
  };

  /** The payment as every page summarises it (the typed view the layout renders). */
  const summaryOf = (payment: Payment, merchant: MerchantView): PaymentSummaryView => {
    const bank = engine.bankOf(payment);
    return {
      amount: payment.amount,
      currency: payment.currency,
      merchant: merchant.name,
      recipientName: payerVisibleText(payment.recipient.name),
      recipientIban: payment.recipient.account.number.value,
      reference: payerVisibleText(bank !== undefined && payment.remittance.truncate ? payment.remittance.value.slice(0, bank.remittanceMaxLength) : payment.remittance.value),
      bankName: bank === undefined ? undefined : payerVisibleText(bank.name),
      fromIban: payment.sender?.account?.number.value,
    };
  };

  /** The client as its payers see it: its branding, falling back to the payment's recipient name. */
  const merchantOf = async (payment: Payment): Promise<MerchantView> => {
    const brand = await branding.get(payment.clientId);
    return {
      // Names and references reach the payer only through payerVisibleText: NFC, no control or format characters.
      name: payerVisibleText(brand?.displayName ?? payment.recipient.name),
      logo: brand?.logo === undefined ? undefined : { path: clientLogoPath(brand.logo.sha256), width: brand.logo.width, height: brand.logo.height },
      supportUrl: brand?.supportUrl,
      stylesheetPath: brand?.brandColour === undefined ? undefined : brandStylesheetPath(brand.brandColour),
    };
  };

  const stepInput = (request: FastifyRequest, payment: Payment): StepInput => ({
    payment,
    state: flowStateOf(payment),
    engine,
    query: (name) => queryText(request, name),
  });

  /** Renders the page of the payment's current step (or sends the payer on). */
  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    loaded: Payment,
    extras: { errors?: readonly InputError[]; notice?: Notice; status?: number; refused?: boolean } = {},
  ): Promise<FastifyReply> => {
    let payment = loaded;
    if (flowStateOf(payment).pageKey === undefined && !flowIsOverForPayer(payment)) payment = await engine.updatePage(payment, { pageKey: newPageKey() });
    if (isWaiting(payment) && extras.errors === undefined) payment = await engine.refresh(payment, actorOf(request));
    const input = stepInput(request, payment);
    const step = currentStep(input);
    const locale = localeOf(request, payment);
    const merchant = await merchantOf(payment);
    const pageKey = input.state.pageKey ?? '';
    // A refusal of the bank (a wrong login or code) stays in the flow state: every view of the form says so, with the
    // attempts left; input errors of this very post come first. So does a notice the step keeps standing.
    const errors = extras.errors !== undefined && extras.errors.length > 0 ? extras.errors : (step.standingErrors?.(input) ?? []);
    const context: PageContext = {
      locale,
      t: translator(locale),
      flowUrl: `/pay/${payment.flowToken}`,
      csrf: (action) => csrfToken(pageKey, action),
      summary: summaryOf(payment, merchant),
      merchant,
      operator,
      sandbox: payment.environment === 'sandbox',
      canGoBack: engine.canGoBack(payment),
      twoLogins: engine.twoLoginsAhead(payment),
      errors,
      notice: extras.notice ?? step.standingNotice?.(input),
      liveView: liveViewOf(step.name, payment),
    };
    const status = extras.status ?? ((extras.errors !== undefined && extras.errors.length > 0) || extras.refused === true ? 422 : 200);
    return sendPage(reply, status, step.page(context, step.view(input)));
  };

  const answer = async (request: FastifyRequest, reply: FastifyReply, outcome: ActionOutcome): Promise<FastifyReply> => {
    switch (outcome.kind) {
      case 'redirect':
        return pageHeaders(reply).code(303).header('Location', outcome.url).send();
      case 'page':
        return show(request, reply, outcome.payment, {
          ...(outcome.errors === undefined ? {} : { errors: outcome.errors }),
          ...(outcome.notice === undefined ? {} : { notice: outcome.notice }),
          ...(outcome.refused === true ? { refused: true } : {}),
        });
      case 'next':
        // Post/redirect/get: a reload never posts the form again.
        return pageHeaders(reply).code(303).header('Location', `/pay/${outcome.payment.flowToken}`).send();
    }
  };

  const guarded =
    <R extends FastifyRequest>(handler: (request: R, reply: FastifyReply) => Promise<FastifyReply>) =>
    async (request: R, reply: FastifyReply): Promise<FastifyReply> => {
      try {
        return await handler(request, reply);
      } catch (error) {
        request.log.error({ err: error }, 'hosted page failed');
        return sendPage(reply, 500, errorPage(browserLocale(request.headers['accept-language']), operator));
      }
    };

  /** Our assets: their address changes with their content, so browsers keep them for a year. */
  const longCache = (reply: FastifyReply, type: string): FastifyReply =>
    reply.type(type).header('Cache-Control', 'public, max-age=31536000, immutable').header('X-Content-Type-Options', 'nosniff');
  app.get(HOSTED_CSS_PATH, hidden, async (_request, reply) => longCache(reply, 'text/css; charset=utf-8').send(HOSTED_CSS));
  app.get(HOSTED_JS_PATH, hidden, async (_request, reply) => longCache(reply, 'text/javascript; charset=utf-8').send(HOSTED_JS));
  app.get(BANK_FILTER_SCRIPT_PATH, hidden, async (_request, reply) => longCache(reply, 'text/javascript; charset=utf-8').send(BANK_FILTER_SCRIPT));

  // A brand colour's stylesheet: the colour is in the address, so any colour is answered alike (no client is named).
  app.get('/pay/assets/:file', hidden, async (request, reply) => {
    const { file } = request.params as { file: string };
    const colour = brandColourOfPath(`/pay/assets/${file}`);
    if (colour === undefined) return sendPage(reply, 404, invalidLinkPage(browserLocale(request.headers['accept-language']), operator));
    return longCache(reply, 'text/css; charset=utf-8').send(brandStylesheet(buttonColours(colour)));
  });

  // A client's logo, as we re-encoded it, by its SHA-256.
  app.get('/pay/assets/logos/:file', hidden, async (request, reply) => {
    const { file } = request.params as { file: string };
    const sha256 = /^([0-9a-f]{64})\.png$/.exec(file)?.[1];
    const png = sha256 === undefined ? undefined : await branding.logoPng(sha256);
    if (png === undefined) return sendPage(reply, 404, invalidLinkPage(browserLocale(request.headers['accept-language']), operator));
    return longCache(reply, 'image/png').header('Content-Security-Policy', "default-src 'none'").send(png);
  });
  app.get(FAVICON_PATH, hidden, async (_request, reply) =>
    reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').header('X-Content-Type-Options', 'nosniff').send(FAVICON_SVG),
  );
  // Browsers ask for /favicon.ico by themselves on pages that name no icon (the API's JSON, the documents).
  app.get('/favicon.ico', hidden, async (_request, reply) => reply.code(301).header('Location', FAVICON_PATH).send());

  // What a waiting page's script asks every two seconds: the payer's view now (step and status), nothing else. A
  // waiting payment is looked at the bank first, as a page load does.
  app.get(
    '/pay/:flowToken/status',
    hidden,
    guarded(async (request, reply) => {
      const { flowToken } = request.params as { flowToken: string };
      let payment = FLOW_TOKEN.test(flowToken) ? await engine.loadByFlowToken(flowToken) : undefined;
      if (payment === undefined) return pageHeaders(reply).code(404).send({ title: 'Not Found', statusCode: 404, message: 'Unknown payment link' });
      if (isWaiting(payment)) payment = await engine.refresh(payment, actorOf(request));
      const step = currentStep(stepInput(request, payment));
      return pageHeaders(reply).code(200).send({ view: liveViewOf(step.name, payment) });
    }),
  );

  app.get('/', hidden, async (request, reply) => {
    const asked = queryText(request, 'lang');
    const locale = asked !== undefined && isSupportedLocale(asked) ? asked : browserLocale(request.headers['accept-language']);
    return sendPage(reply, 200, frontDoorPage(locale, { apiReferenceUrl: '/docs', sandboxUrl: options.sandboxBankUrl, consoleUrl: options.consoleUrl }));
  });

  app.get(
    '/pay/:flowToken',
    hidden,
    guarded(async (request, reply) => {
      const { flowToken } = request.params as { flowToken: string };
      const payment = FLOW_TOKEN.test(flowToken) ? await engine.loadByFlowToken(flowToken) : undefined;
      if (payment === undefined) return sendPage(reply, 404, invalidLinkPage(browserLocale(request.headers['accept-language']), operator));
      const lang = queryText(request, 'lang');
      if (lang !== undefined && isSupportedLocale(lang) && lang !== payment.locale && !flowIsOverForPayer(payment)) {
        // The payer's choice is remembered for the payment (and so for every later page).
        return show(request, reply, await engine.updatePage(payment, { locale: lang }));
      }
      return show(request, reply, payment);
    }),
  );

  app.post(
    '/pay/:flowToken/:action',
    { ...hidden, bodyLimit: 16 * 1024 },
    guarded(async (request, reply) => {
      const { flowToken, action } = request.params as { flowToken: string; action: string };
      const locale = browserLocale(request.headers['accept-language']);
      const payment = FLOW_TOKEN.test(flowToken) ? await engine.loadByFlowToken(flowToken) : undefined;
      if (payment === undefined || !ACTION_NAME.test(action)) return sendPage(reply, 404, invalidLinkPage(locale, operator));
      const form: Form = typeof request.body === 'object' && request.body !== null ? (request.body as Form) : {};
      if (!sameOriginPost(request, baseUrl) || !csrfValid(flowStateOf(payment).pageKey, action, form['csrf'])) {
        request.log.warn({ paymentId: payment.id, action }, 'hosted form refused: missing or wrong CSRF token, or cross-site post');
        return sendPage(reply, 403, expiredFormPage(payment.locale !== null && isSupportedLocale(payment.locale) ? payment.locale : locale, operator));
      }
      const handler = actionHandler(stepInput(request, payment), action);
      if (handler === undefined) return sendPage(reply, 404, invalidLinkPage(locale, operator));
      const outcome = await handler({ ...stepInput(request, payment), form: (name) => text(form, name), actor: actorOf(request) });
      return answer(request, reply, outcome);
    }),
  );

  /**
   * The bank's answer for the engine: the query and the form, without our own `result` marker of the "not OK"
   * address (which only the per-payment callback has).
   */
  const bankReturnOf = (request: FastifyRequest, withNokMarker: boolean): BankReturn => ({
    query: stringParameters(request.query, withNokMarker ? ['result'] : []),
    form: request.method === 'POST' ? stringParameters(request.body) : {},
    nok: withNokMarker && queryText(request, 'result') === 'nok',
  });

  const refusedReturn = (request: FastifyRequest, reply: FastifyReply, paymentId: string | undefined): FastifyReply => {
    request.log.warn({ paymentId }, 'bank callback refused: unknown, forged or already used');
    return sendPage(reply, 404, invalidLinkPage(browserLocale(request.headers['accept-language']), operator));
  };

  // The bank sends the payer's browser here; some banks post their answer as a form (`response_mode=form_post`),
  // from their own site: the single-use secret in the path, not a CSRF token, is what makes the request ours.
  const perPaymentReturn = guarded(async (request, reply) => {
    const { paymentId, secret } = request.params as { paymentId: string; secret: string };
    const known = UUID.test(paymentId);
    const outcome = known ? await engine.bankReturn(paymentId, secret, bankReturnOf(request, true), actorOf(request)) : undefined;
    if (outcome === undefined) return refusedReturn(request, reply, known ? paymentId : undefined);
    return answer(request, reply, outcome);
  });
  const returnLimits = { ...hidden, bodyLimit: 64 * 1024 };
  app.get('/pay/return/:paymentId/:secret', hidden, perPaymentReturn);
  app.post('/pay/return/:paymentId/:secret', returnLimits, perPaymentReturn);

  // The fixed return URL: the `state` we gave the bank (kept in what the connector reads: the standard checks it)
  // names the payment. Without one in the query the answer is in the URL fragment, which only the browser sees:
  // a page posts it back here.
  const registeredReturn = guarded(async (request, reply) => {
    const returned = bankReturnOf(request, false);
    const state = request.method === 'POST' ? returned.form['state'] : returned.query['state'];
    if (state === undefined && request.method === 'GET') {
      return pageHeaders(reply).header('Content-Security-Policy', FRAGMENT_RETURN_CSP).code(200).type('text/html; charset=utf-8').send(fragmentReturnPage());
    }
    const outcome = state === undefined ? undefined : await engine.bankReturnByState(state, returned, actorOf(request));
    if (outcome === undefined) return refusedReturn(request, reply, undefined);
    return answer(request, reply, outcome);
  });
  app.get(REGISTERED_RETURN_PATH, hidden, registeredReturn);
  app.post(REGISTERED_RETURN_PATH, returnLimits, registeredReturn);
}

export { localeFromAcceptLanguage };
