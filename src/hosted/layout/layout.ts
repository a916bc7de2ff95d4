/**
 * The shared layout of the hosted pages: language, header, the payment summary (amount, recipient, IBAN,
 * reference: shown on every page, so the payer sees what they approve before leaving for the bank), the error
 * summary, "choose another bank" while allowed, the cancel button and the language switch; the merchant's name and
 * logo in the header, its brand colour on the primary buttons (a stylesheet of ours), the operator's statement and
 * links in the footer. Every page works without script; our one script file (script.ts) makes buttons show they are
 * working and waiting pages follow the status (the bank list adds its filter, bank-selection/filter-script.ts).
 * A waiting page without script reloads through a `<noscript>` meta refresh, says so, and links to itself.
 */
import { SUPPORTED_LOCALES, type Locale } from '../../i18n/locale.js';
import { LANGUAGE_NAMES, translator, type MessageKey, type Translate } from '../../i18n/messages.js';
import type { OperatorIdentity } from '../../config/config.js';
import type { InputError } from '../../flow/engine.js';
import { html, type SafeHtml } from '../html.js';
import { formAction, type AccountView, type MerchantView, type PageContext } from './page-context.js';
import { HOSTED_JS_PATH } from './script.js';
import { HOSTED_CSS_PATH } from './styles.js';
import { FAVICON_PATH } from './favicon.js';

export interface LayoutOptions {
  readonly heading: string;
  readonly body: SafeHtml;
  /** Waiting pages: reloaded while the payer waits (the routes set it up); the page says so and links to itself. */
  readonly waiting?: boolean;
  /** An outcome's mark above the heading (decorative: the heading says it). */
  readonly mark?: 'done' | 'failed';
  /** See `DocumentOptions.noScriptRefresh` (waiting pages get a reload of their own). */
  readonly noScriptRefresh?: DocumentOptions['noScriptRefresh'];
  readonly summary?: boolean;
  readonly cancel?: boolean;
  /** The "choose another bank" button where the payer may go back (default: shown when allowed). */
  readonly back?: boolean;
  /** The summary as a sentence and the reference only (the bank list: the banks must fit the first screen). */
  readonly compactSummary?: boolean;
  /**
   * The page's form first: the payment sentence above it, the details below it (the login and code pages, so that on
   * a phone the fields are on the first screen).
   */
  readonly formFirst?: boolean;
  /** Our script for this page (a path under /pay/assets; CSP `script-src 'self'`). */
  readonly script?: string;
}

/** An amount as people read it in their language; Intl formats the decimal string exactly (no float maths). */
export function formatAmount(amount: string, currency: string, locale: Locale): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency }) as unknown as { format(value: string): string };
  return format.format(amount);
}

export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

/** How an account paid to is labelled: by IBAN, or a UK account by sort code and account number. */
function accountLabel(t: Translate, account: AccountView): string {
  return 'iban' in account ? t('summary.recipientIban') : t('summary.recipientAccount');
}

/** An account paid to as people read it: an IBAN in groups of four, a UK sort code in pairs (60-16-13). */
export function formatAccount(t: Translate, account: AccountView): string {
  if ('iban' in account) return formatIban(account.iban);
  const sortCode = account.sortCode.replace(/(\d{2})(?=\d)/g, '$1-');
  return account.rollNumber === undefined
    ? t('summary.sortCodeAccount', { sortCode, accountNumber: account.accountNumber })
    : t('summary.sortCodeAccountRoll', { sortCode, accountNumber: account.accountNumber, rollNumber: account.rollNumber });
}

export function countryName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * The payment in one plain sentence: "You are paying €10.50 to Acme GmbH from your account at Rheinland Bank,
 * initiated by <operator>"; the bank and the operator are left out while unknown or unset.
 */
export function paymentSentence(context: PageContext): string {
  const { summary: payment, t, locale, operator } = context;
  if (payment.bulk !== undefined) {
    // Refunds approved together: their total and how many customers are paid back (each is listed below).
    const params = { amount: formatAmount(payment.amount, payment.currency, locale), count: String(payment.bulk.length) };
    return payment.bankName === undefined
      ? t('summary.bulkRefundSentence', params)
      : t('summary.bulkRefundSentenceBank', { ...params, bank: payment.bankName });
  }
  const params = {
    amount: formatAmount(payment.amount, payment.currency, locale),
    merchant: payment.merchant,
    bank: payment.bankName ?? '',
    operator: operator.name ?? '',
  };
  // A refund's translator says "You are refunding €7.50 to Dave" instead (src/i18n/messages.ts, RefundWording).
  const key: MessageKey =
    payment.bankName === undefined
      ? operator.name === undefined
        ? 'summary.sentence'
        : 'summary.sentenceOperator'
      : operator.name === undefined
        ? 'summary.sentenceBank'
        : 'summary.sentenceBankOperator';
  return t(key, params);
}

/**
 * The payment summary on every page: the sentence, then the details. Compact (the bank list, where the list must
 * be in the first screen of a phone): the sentence and the reference only. Without the sentence once it no longer
 * holds (a failed payment's outcome).
 */
export function paymentSummary(context: PageContext, options: { readonly compact?: boolean; readonly sentence?: boolean } = {}): SafeHtml {
  const { summary: payment, t, locale } = context;
  const compact = options.compact === true;
  const sentence = options.sentence === false ? '' : html`<p class="sentence">${paymentSentence(context)}</p>`;
  if (payment.bulk !== undefined) return bulkSummary(context, sentence);
  if (compact) {
    return html`<section class="summary" aria-labelledby="summary-heading"><h2 id="summary-heading" class="visually-hidden">${t('summary.heading')}</h2>${sentence}<dl>
<dt>${t('summary.reference')}</dt><dd>${payment.reference}</dd>
</dl></section>`;
  }
  return html`<section class="summary" aria-labelledby="summary-heading"><h2 id="summary-heading">${t('summary.heading')}</h2>${sentence}<dl>
<dt>${t('summary.amount')}</dt><dd class="amount">${formatAmount(payment.amount, payment.currency, locale)}</dd>
<dt>${t('summary.recipient')}</dt><dd>${recipient(context)}</dd>
<dt>${accountLabel(t, payment.recipientAccount)}</dt><dd>${formatAccount(t, payment.recipientAccount)}</dd>
<dt>${t('summary.reference')}</dt><dd>${payment.reference}</dd>
${payment.bankName === undefined ? '' : html`<dt>${t('summary.bank')}</dt><dd>${payment.bankName}</dd>`}
${payment.fromIban === undefined ? '' : html`<dt>${t('summary.from')}</dt><dd>${formatIban(payment.fromIban)}</dd>`}
</dl></section>`;
}

/**
 * Refunds approved together: the sentence (their total), then every refund with its recipient, account, amount and
 * reference, so the approver checks each line before the one authorisation at their bank. Never compact: the bank
 * list of a bulk must show what is approved.
 */
function bulkSummary(context: PageContext, sentence: SafeHtml | string): SafeHtml {
  const { summary, t } = context;
  return html`<section class="summary" aria-labelledby="summary-heading"><h2 id="summary-heading">${t('summary.bulkHeading')}</h2>${sentence}
${bulkLines(context)}
<dl>${summary.bankName === undefined ? '' : html`<dt>${t('summary.bank')}</dt><dd>${summary.bankName}</dd>`}
${summary.fromIban === undefined ? '' : html`<dt>${t('summary.from')}</dt><dd>${formatIban(summary.fromIban)}</dd>`}</dl></section>`;
}

/**
 * The refunds of a bulk, one row each (recipient, account, reference, amount); nothing outside a bulk. Scrollable on
 * a narrow screen, so a region the keyboard reaches, named by the sentence of their total.
 */
export function bulkLines(context: PageContext): SafeHtml {
  const { summary, t, locale } = context;
  if (summary.bulk === undefined) return html``;
  return html`<div class="bulk-wrap" role="region" aria-label="${paymentSentence(context)}" tabindex="0"><table class="bulk-lines"><thead><tr><th scope="col">${t('summary.recipient')}</th><th scope="col">${bulkAccountLabel(context)}</th><th scope="col">${t('summary.reference')}</th><th scope="col" class="line-amount">${t('summary.amount')}</th></tr></thead>
<tbody>${summary.bulk.map(
    (line) =>
      html`<tr><td data-label="${t('summary.recipient')}">${line.recipientName}</td><td data-label="${accountLabel(t, line.recipientAccount)}">${formatAccount(t, line.recipientAccount)}</td><td data-label="${t('summary.reference')}">${line.reference}</td><td class="line-amount" data-label="${t('summary.amount')}">${formatAmount(line.amount, summary.currency, locale)}</td></tr>`,
  )}</tbody></table></div>`;
}

/** The heading of a bulk's account column: IBAN when every line is paid to one, else the general word. */
function bulkAccountLabel(context: PageContext): string {
  const { summary, t } = context;
  return (summary.bulk ?? []).every((line) => 'iban' in line.recipientAccount) ? t('summary.recipientIban') : t('summary.recipientAccount');
}

/**
 * Who receives the money: the account holder's name, and when the client's display name differs (a shop trading
 * under another name than its account's holder), how the two relate.
 */
function recipient(context: PageContext): string {
  const { summary, t } = context;
  return summary.recipientName === summary.merchant || summary.refund === true
    ? summary.recipientName
    : t('summary.recipientFor', { recipient: summary.recipientName, merchant: summary.merchant });
}

/**
 * The line that ties Continue to the operator's terms and names who initiates the payment: the operator, as the
 * payment initiation service provider (PSD2 art. 45 and 66), on the payer's instruction.
 */
export function consentLine(context: PageContext): SafeHtml {
  const { t, operator } = context;
  const terms =
    operator.termsUrl === undefined
      ? undefined
      : html`<a href="${operator.termsUrl}" target="_blank" rel="noopener noreferrer">${t('consent.termsLink')}</a>`;
  const key: MessageKey =
    operator.name === undefined
      ? terms === undefined
        ? 'consent.service'
        : 'consent.serviceTerms'
      : terms === undefined
        ? 'consent.operator'
        : 'consent.operatorTerms';
  const text = t(key, { operator: operator.name ?? '' });
  return html`<p class="consent">${terms === undefined ? text : textWith(text, 'terms', terms)}</p>`;
}

/** A translated text with one placeholder left in it (`{name}`) replaced by markup; the rest escaped. */
export function textWith(text: string, name: string, markup: SafeHtml): SafeHtml {
  const [before, ...rest] = text.split(`{${name}}`);
  return html`${before ?? ''}${markup}${rest.join(`{${name}}`)}`;
}

/** The message of an empty field, naming it. */
const REQUIRED_FIELD_MESSAGES: Partial<Readonly<Record<InputError['field'], MessageKey>>> = {
  loginId: 'errors.requiredField.loginId',
  password: 'errors.requiredField.password',
  iban: 'errors.requiredField.iban',
  otp: 'errors.requiredField.otp',
};

export function errorMessageKey(error: InputError): MessageKey {
  return `errors.${error.message}` as MessageKey;
}

/** An error's text: its message, and after a refusal of the bank the attempts the payer has left. */
export function errorText(context: PageContext, error: InputError): string {
  // An empty field is named, so the payer knows which one without looking for it.
  const message = context.t(
    error.message === 'required' && Object.hasOwn(REQUIRED_FIELD_MESSAGES, error.field)
      ? (REQUIRED_FIELD_MESSAGES[error.field] ?? errorMessageKey(error))
      : errorMessageKey(error),
  );
  return error.attemptsLeft === undefined
    ? message
    : `${message} ${context.t('errors.attemptsLeft', { count: String(error.attemptsLeft) })}`;
}

/** The error summary at the top of a form: each message links to its field. */
export function errorSummary(context: PageContext): SafeHtml {
  if (context.errors.length === 0) return html``;
  return html`<div class="errors" role="alert" tabindex="-1" id="error-summary"><h2>${context.t('errors.heading')}</h2><ul>${context.errors.map(
    (error) =>
      html`<li>${error.field === 'form' ? errorText(context, error) : html`<a href="#${error.field}">${errorText(context, error)}</a>`}</li>`,
  )}</ul></div>`;
}

/** A labelled input with its hint and error, wired with aria-describedby. */
export function field(
  context: PageContext,
  options: {
    name: InputError['field'];
    label: string;
    type: 'text' | 'password';
    autocomplete: string;
    hint?: string;
    inputmode?: string;
    maxlength?: number;
  },
): SafeHtml {
  const error = context.errors.find((candidate) => candidate.field === options.name);
  const describedBy = [options.hint === undefined ? '' : `${options.name}-hint`, error === undefined ? '' : `${options.name}-error`]
    .filter(Boolean)
    .join(' ');
  return html`<label for="${options.name}">${options.label}</label>
${options.hint === undefined ? '' : html`<span class="hint" id="${options.name}-hint">${options.hint}</span>`}
${error === undefined ? '' : html`<p class="field-error" id="${options.name}-error">${errorText(context, error)}</p>`}
<input type="${options.type}" id="${options.name}" name="${options.name}" autocomplete="${options.autocomplete}" required${options.inputmode === undefined ? '' : html` inputmode="${options.inputmode}"`}${options.maxlength === undefined ? '' : html` maxlength="${String(options.maxlength)}"`}${describedBy === '' ? '' : html` aria-describedby="${describedBy}"`}${error === undefined ? '' : html` aria-invalid="true"`}>`;
}

/** The hidden CSRF field of a form posting to `action`. */
export function csrfField(context: PageContext, action: string): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${context.csrf(action)}">`;
}

/**
 * A form posting to one of the payment's actions. `keepsLoginId`: a login form whose user ID our script keeps in
 * the tab across the post (the server never sends a typed credential back), so after a wrong password the payer
 * types the password only.
 */
export function postForm(
  context: PageContext,
  action: string,
  inner: SafeHtml,
  options: { novalidate?: boolean; keepsLoginId?: boolean } = {},
): SafeHtml {
  return html`<form method="post" action="${formAction(context, action)}"${options.novalidate === true ? html` novalidate` : ''}${options.keepsLoginId === true ? html` data-keep-login` : ''}>${csrfField(context, action)}${inner}</form>`;
}

/**
 * "Cancel payment" ("Cancel refund"): a link, set apart from the page's own buttons, to the page that asks the payer
 * to confirm.
 */
export function cancelLink(context: PageContext): SafeHtml {
  return html`<p class="cancel-link"><a href="${formAction(context, 'cancel')}">${context.t('page.cancel')}</a></p>`;
}

/** "Choose another bank": before the bank holds the payment, the payer may go back to the bank list. */
export function backForm(context: PageContext): SafeHtml {
  return context.canGoBack
    ? postForm(context, 'back', html`<button type="submit" class="secondary">${context.t('page.back')}</button>`)
    : html``;
}

function languageSwitch(context: PageContext): SafeHtml {
  return html`<nav aria-label="${context.t('page.language')}"><ul class="langs">${SUPPORTED_LOCALES.map(
    (locale) =>
      html`<li><a href="${context.flowUrl}?lang=${locale}" lang="${locale}" hreflang="${locale}"${locale === context.locale ? html` aria-current="true"` : ''}>${LANGUAGE_NAMES[locale]}</a></li>`,
  )}</ul></nav>`;
}

/** A logo this much wider than high is taken for a wordmark (the name written out), shown instead of the name. */
const WORDMARK_ASPECT = 2;

/** The header: who is paid (the merchant's logo and name), or our title on pages without a payment. */
function header(t: Translate, merchant: MerchantView | undefined, sandbox: boolean): SafeHtml {
  const who =
    merchant === undefined
      ? html`<span class="brand">${t('page.title')}</span>`
      : merchant.logo !== undefined && merchant.logo.width >= WORDMARK_ASPECT * merchant.logo.height
        ? // A wide logo is a wordmark: it says the name itself (its text alternative too).
          html`<div class="merchant"><img src="${merchant.logo.path}" alt="${merchant.name}" width="${String(merchant.logo.width)}" height="${String(merchant.logo.height)}"></div>`
        : html`<div class="merchant">${merchant.logo === undefined ? '' : html`<img src="${merchant.logo.path}" alt="" width="${String(merchant.logo.width)}" height="${String(merchant.logo.height)}">`}<span>${merchant.name}</span></div>`;
  const aside = sandbox
    ? html`<span class="sandbox">${t('page.sandbox')}</span>`
    : merchant === undefined
      ? ''
      : html`<span class="secure">${t('page.title')}</span>`;
  return html`<header class="top">${who}${aside}</header>`;
}

/** The footer's legal part: who initiates the payment (the operator), its statement and links, the merchant's help. */
function legal(t: Translate, operator: OperatorIdentity | undefined, merchant: MerchantView | undefined): SafeHtml {
  const links = [
    merchant?.supportUrl === undefined ? undefined : { href: merchant.supportUrl, text: t('page.support', { merchant: merchant.name }) },
    operator?.termsUrl === undefined ? undefined : { href: operator.termsUrl, text: t('page.terms') },
    operator?.privacyUrl === undefined ? undefined : { href: operator.privacyUrl, text: t('page.privacy') },
  ].filter((link) => link !== undefined);
  const statement = [
    operator?.name === undefined ? undefined : t('page.operator', { operator: operator.name }),
    operator?.regulatoryStatement,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
  return html`${statement === '' ? '' : html`<p class="regulatory">${statement}</p>`}${
    links.length === 0
      ? ''
      : html`<ul class="legal">${links.map((link) => html`<li><a href="${link.href}" target="_blank" rel="noopener noreferrer">${link.text}</a></li>`)}</ul>`
  }`;
}

/** How often a waiting page is reloaded without script (seconds); with script it asks the status endpoint as often. */
export const WAITING_REFRESH_SECONDS = 2;

export interface DocumentOptions {
  readonly locale: Locale;
  readonly title: string;
  readonly body: SafeHtml;
  readonly sandbox: boolean;
  /**
   * Without script only (inside `<noscript>`, so a browser running our script never sees it, and neither does
   * axe-core): reload after `seconds`, or go on to `url`. With script, the page's script does the same gently.
   */
  readonly noScriptRefresh?: { readonly seconds: number; readonly url?: string };
  /** The operator (its statement and links in the footer); absent on pages that are not the payer's. */
  readonly operator?: OperatorIdentity;
  /** Who is paid: the header, the title, the brand colour's stylesheet; absent on pages without a payment. */
  readonly merchant?: MerchantView;
  /** Inside the footer, before the operator's part (the language switch). */
  readonly footer?: SafeHtml;
  /** A script of this page besides the one of every page (a path under /pay/assets), loaded deferred. */
  readonly script?: string;
  /** The page's translator when it is not the language's own (a refund's pages: their words, src/i18n/messages.ts). */
  readonly t?: Translate;
}

export function document(options: DocumentOptions): string {
  const t = options.t ?? translator(options.locale);
  const refresh = options.noScriptRefresh;
  const { merchant } = options;
  // A page that brings its own footer (the front door) gets none from here: one contentinfo landmark per page.
  const footer = html`${options.footer ?? ''}${legal(t, options.operator, merchant)}`;
  return html`<!doctype html>
<html lang="${options.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${options.title} – ${merchant === undefined ? t('page.title') : merchant.name}</title><link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml"><link rel="stylesheet" href="${HOSTED_CSS_PATH}">${
    merchant?.stylesheetPath === undefined ? '' : html`<link rel="stylesheet" href="${merchant.stylesheetPath}">`
  }<script src="${HOSTED_JS_PATH}" defer></script>${options.script === undefined ? '' : html`<script src="${options.script}" defer></script>`}${
    refresh === undefined
      ? ''
      : html`<noscript><meta http-equiv="refresh" content="${String(refresh.seconds)}${refresh.url === undefined ? '' : html`;url=${refresh.url}`}"></noscript>`
  }</head>
<body>${header(t, merchant, options.sandbox)}
${options.body}
${footer.value === '' ? '' : html`<footer>${footer}</footer>`}</body></html>`.value;
}

export function layout(context: PageContext, options: LayoutOptions): string {
  const notice = context.notice === undefined ? '' : html`<p class="notice" role="status">${context.t(`notice.${context.notice}`)}</p>`;
  // A waiting page follows the payment; so does a desktop's page offering the QR code (a phone may take the flow over).
  const live =
    options.waiting === true || context.handover !== undefined
      ? html` data-status-url="${context.flowUrl}/status" data-view="${context.liveView}"`
      : '';
  const twoLogins = context.twoLogins
    ? html`<p class="info">${context.t('notice.twoLogins', { bank: context.summary.bankName ?? '' })}</p>`
    : '';
  const progress = options.waiting === true ? html`<progress class="progress" aria-label="${context.t('page.working')}"></progress>` : '';
  const mark = options.mark === undefined ? '' : html`<p class="outcome-mark outcome-${options.mark}" aria-hidden="true"></p>`;
  const formFirst = options.formFirst === true && options.summary !== false && options.waiting !== true;
  const summary =
    options.summary === false
      ? ''
      : formFirst
        ? paymentSummary(context, { sentence: false })
        : paymentSummary(context, { compact: options.compactSummary === true });
  const before = formFirst ? html`<p class="sentence">${paymentSentence(context)}</p>` : options.waiting === true ? '' : summary;
  const after = formFirst || options.waiting === true ? summary : '';
  const body = html`<main id="main"${live}>${mark}<h1>${options.heading}</h1>${progress}${notice}${twoLogins}${errorSummary(context)}${before}${options.body}${after}${
    options.waiting !== true
      ? ''
      : html`<p class="hint" role="status">${context.t('page.autoRefresh')} <a href="${context.flowUrl}">${context.t('page.checkNow')}</a></p>`
  }${context.handover ?? ''}${options.back === false ? '' : backForm(context)}${options.cancel === false ? '' : cancelLink(context)}</main>`;
  return document({
    locale: context.locale,
    title: options.heading,
    body,
    sandbox: context.sandbox,
    operator: context.operator,
    merchant: context.merchant,
    footer: languageSwitch(context),
    t: context.t,
    ...(options.script === undefined ? {} : { script: options.script }),
    ...(options.noScriptRefresh !== undefined
      ? { noScriptRefresh: options.noScriptRefresh }
      : options.waiting === true
        ? { noScriptRefresh: { seconds: WAITING_REFRESH_SECONDS } }
        : {}),
  });
}

/**
 * Pages without a payment's summary (invalid link, expired form): in the language the browser asks for, with the
 * words of a refund where the payment is one (`t`).
 */
export function standalonePage(
  locale: Locale,
  heading: MessageKey,
  intro: MessageKey,
  operator: OperatorIdentity,
  t: Translate = translator(locale),
): string {
  return document({
    locale,
    t,
    title: t(heading),
    sandbox: false,
    operator,
    body: html`<main id="main"><h1>${t(heading)}</h1><p>${t(intro)}</p></main>`,
  });
}
