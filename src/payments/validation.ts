/**
 * Validation of a payment creation request: the spec's field rules and decisions §2, all violations reported
 * in one message. Pure (no I/O): the catalogue is in memory, so the provider rules run here too.
 */
import { electronicFormatIBAN } from 'ibantools';
import { createAjv } from '../http/ajv.js';
import { limitedMessagesFor } from '../http/ajv-messages.js';
import { MAX_LISTED_VIOLATIONS } from '../http/errors.js';
import type { Bank, Environment, CatalogueView } from '../providers/catalogue.js';
import { bankMismatch, eligibleBanks, type PaymentFit } from '../providers/eligibility.js';
import { refusedHostKind } from '../webhooks/ssrf-guard.js';
import { hasInvisibleCharacters, normalisedDisplayText, VISIBLE_TEXT_MESSAGE } from '../domain/display-text.js';
import { decimalPlaces, minorUnitDigits, toDecimalString } from '../domain/money.js';
import { PaymentCreationRequestSchema, type PaymentCreationRequest } from './schemas.js';

export interface ValidationContext {
  readonly environment: Environment;
  readonly catalogue: CatalogueView;
  /** The operator's `WEBHOOK_ALLOW_PRIVATE_TARGETS`: webhook URLs may name loopback and private addresses. */
  readonly allowPrivateWebhookTargets: boolean;
}

/** A request that passed every rule, normalised for storage. */
export interface ValidPaymentRequest {
  readonly request: PaymentCreationRequest;
  /** Exact decimal string with the currency's minor-unit digits. */
  readonly amount: string;
  readonly mode: 'custom' | 'hosted';
  /** The chosen bank in custom mode. */
  readonly bank: Bank | undefined;
  /** Remittance as it will be sent (cut to the bank's limit when the client allowed truncation). */
  readonly remittance: string;
}

export type PaymentValidationResult =
  | { readonly kind: 'valid'; readonly payment: ValidPaymentRequest }
  | {
      readonly kind: 'invalid';
      readonly violations: readonly string[];
      /** Violations found but not worded: validation stops wording at the cap (src/http/errors.ts). */
      readonly unlisted?: number;
    }
  | { readonly kind: 'unknown-provider'; readonly providerId: string };

const checkSchema = createAjv().compile<PaymentCreationRequest>(PaymentCreationRequestSchema);

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * A webhook URL that could never be delivered to is refused now, while the client is there to hear it, rather
 * than at delivery (decisions §4). The address rules are the delivery guard's own (src/webhooks/ssrf-guard.ts);
 * host names are resolved and checked again at connect time.
 */
function webhookUrlViolations(url: URL, context: Pick<ValidationContext, 'allowPrivateWebhookTargets'>): string[] {
  const violations: string[] = [];
  if (url.protocol !== 'https:') violations.push('metadata.webhookUrl must be an https URL');
  if (url.username !== '' || url.password !== '') violations.push('metadata.webhookUrl must not contain a user name or password');
  const refusedKind = refusedHostKind(url.hostname, { allowPrivateTargets: context.allowPrivateWebhookTargets });
  if (refusedKind !== undefined)
    violations.push(`metadata.webhookUrl must point to a public address (${refusedKind} addresses are not allowed)`);
  return violations;
}

/**
 * The rules of `metadata.redirectUri` and `metadata.webhookUrl` beyond the schema, for every request that creates a
 * payment (a refund included): https, except http to localhost for sandbox clients; webhooks only to public addresses.
 */
export function returnAndWebhookViolations(
  body: unknown,
  context: Pick<ValidationContext, 'environment' | 'allowPrivateWebhookTargets'>,
): string[] {
  const violations: string[] = [];
  const redirectUri = pick(body, 'metadata', 'redirectUri');
  if (typeof redirectUri === 'string') {
    const url = parseUrl(redirectUri);
    const loopbackHttpAllowed = url?.protocol === 'http:' && isLoopbackHost(url.hostname) && context.environment === 'sandbox';
    if (url !== undefined && url.protocol !== 'https:' && !loopbackHttpAllowed) {
      violations.push('metadata.redirectUri must be an https URL (http only for localhost, sandbox clients only)');
    }
  }
  const webhookUrl = pick(body, 'metadata', 'webhookUrl');
  if (typeof webhookUrl === 'string') {
    const url = parseUrl(webhookUrl);
    if (url !== undefined) violations.push(...webhookUrlViolations(url, context));
  }
  return violations;
}

/** Fields of names and addresses: shown to payers or sent to banks, so without invisible characters. */
const VISIBLE_TEXT_FIELDS: readonly (readonly string[])[] = [
  ['recipient', 'name'],
  ...['recipient', 'sender'].flatMap((party) =>
    ['city', 'streetName', 'buildingNumber', 'postCode'].map((field) => [party, 'address', field]),
  ),
];

/** Reads a nested property of a not-yet-validated body without trusting its shape. */
export function pick(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/**
 * Rules beyond the JSON schema. They read the raw body defensively, so they also run (and add their
 * violations to the same message) when other parts of the body are malformed.
 */
function semanticViolations(body: unknown, context: ValidationContext): string[] {
  const violations: string[] = [];
  const amount = pick(body, 'amount');
  const currency = pick(body, 'currency');
  if (typeof amount === 'number' && typeof currency === 'string') {
    const places = decimalPlaces(amount);
    const allowed = minorUnitDigits(currency);
    if (places !== undefined && places > allowed) {
      violations.push(
        allowed === 0
          ? `amount must be a whole number for ${currency}`
          : `amount must not have more than ${allowed} decimal places for ${currency}`,
      );
    }
  }
  if (pick(body, 'paymentScheme', 'name') === 'SEPA' && typeof currency === 'string' && currency !== 'EUR') {
    violations.push('currency must be EUR for the SEPA payment scheme');
  }

  violations.push(...returnAndWebhookViolations(body, context));

  // The schema's pattern names the Basic Multilingual Plane's invisible characters; this is the whole rule
  // (format characters beyond it too), with the same message (src/domain/display-text.ts).
  for (const path of VISIBLE_TEXT_FIELDS) {
    const value = pick(body, ...path);
    if (typeof value === 'string' && hasInvisibleCharacters(value)) violations.push(`${path.join('.')} ${VISIBLE_TEXT_MESSAGE}`);
  }

  const list = pick(body, 'provider', 'preferences', 'countryCodes', 'list');
  const defaultCountry = pick(body, 'provider', 'preferences', 'countryCodes', 'default');
  if (Array.isArray(list) && typeof defaultCountry === 'string' && !list.includes(defaultCountry)) {
    violations.push('provider.preferences.countryCodes.default must be one of provider.preferences.countryCodes.list');
  }
  return violations;
}

/** What of a creation request decides which banks can take it. */
function paymentFit(request: PaymentCreationRequest): PaymentFit {
  const countries = request.provider?.preferences?.countryCodes?.list;
  return {
    scheme: request.paymentScheme.name,
    currency: request.currency,
    remittance: { value: request.remittanceInformation.value, truncate: request.remittanceInformation.preferences?.truncate === true },
    ...(countries === undefined ? {} : { countries }),
  };
}

/** IBANs in electronic format; the recipient's name, shown to payers, in Unicode NFC (src/domain/display-text.ts). */
function normalised(request: PaymentCreationRequest): PaymentCreationRequest {
  const normalise = (value: string): string => electronicFormatIBAN(value) ?? value;
  const recipient = {
    ...request.recipient,
    name: normalisedDisplayText(request.recipient.name),
    account: { number: { ...request.recipient.account.number, value: normalise(request.recipient.account.number.value) } },
  };
  const senderAccount = request.sender?.account;
  const sender =
    request.sender === undefined
      ? undefined
      : {
          ...request.sender,
          ...(senderAccount === undefined
            ? {}
            : { account: { ...senderAccount, number: { ...senderAccount.number, value: normalise(senderAccount.number.value) } } }),
        };
  return { ...request, recipient, ...(sender === undefined ? {} : { sender }) };
}

export function validatePaymentCreation(body: unknown, context: ValidationContext): PaymentValidationResult {
  const schemaValid = checkSchema(body);
  const schemaMessages = schemaValid ? { messages: [], unlisted: 0 } : limitedMessagesFor(checkSchema.errors ?? []);
  // Past the cap of listed violations nothing more would be shown: the rules below are not run (issue 23 item 9).
  if (schemaMessages.messages.length + schemaMessages.unlisted >= MAX_LISTED_VIOLATIONS) {
    return { kind: 'invalid', violations: schemaMessages.messages, unlisted: schemaMessages.unlisted };
  }
  const violations = [...schemaMessages.messages, ...semanticViolations(body, context)];

  // The provider rules need a well-formed id; its lookup is in memory.
  const providerId = pick(body, 'provider', 'id');
  const lookup =
    typeof providerId === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(providerId)
      ? context.catalogue.findForNewPayment(providerId, context.environment)
      : undefined;
  if (lookup?.kind === 'group') {
    violations.push(`provider.id must be a subsidiary of ${lookup.group.name}, not the group itself`);
  }

  if (!schemaValid || violations.length > 0) return { kind: 'invalid', violations: [...new Set(violations)] };
  const request = normalised(body);

  if (lookup !== undefined) {
    if (lookup.kind !== 'bank') return { kind: 'unknown-provider', providerId: String(providerId) };
    const mismatch = bankMismatch(lookup.bank, paymentFit(request));
    if (mismatch !== undefined) return { kind: 'invalid', violations: [mismatch] };
  } else if (eligibleBanks(context.catalogue.banks(context.environment), paymentFit(request)).length === 0) {
    const countries = request.provider?.preferences?.countryCodes?.list;
    return {
      kind: 'invalid',
      violations: [
        countries === undefined
          ? `currency must be one that an available bank supports for ${request.paymentScheme.name} payments (none supports ${request.currency})`
          : `provider.preferences.countryCodes.list must include a country where an available bank supports ${request.paymentScheme.name} payments in ${request.currency}`,
      ],
    };
  }

  const bank = lookup?.kind === 'bank' ? lookup.bank : undefined;
  const remittanceValue = request.remittanceInformation.value;
  const remittance =
    bank !== undefined && request.remittanceInformation.preferences?.truncate === true
      ? remittanceValue.slice(0, bank.remittanceMaxLength)
      : remittanceValue;
  return {
    kind: 'valid',
    payment: {
      request,
      amount: toDecimalString(request.amount, request.currency),
      mode: bank === undefined ? 'hosted' : 'custom',
      bank,
      remittance,
    },
  };
}
