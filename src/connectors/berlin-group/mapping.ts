/**
 * From the standard's answers to our types: SCA methods, challenges, accounts, the SCA approach and, above all,
 * the next SCA step, derived from the links the bank returned (the standard's hypermedia: the bank tells the TPP
 * what to call next, and we follow it instead of guessing).
 */
import type { ScaApproach } from '../../domain/reference-data.js';
import type { BankAccount, NextScaStep, ScaChallenge, ScaMethod, ScaStatus } from '../contract.js';
import { ABSENT, found, holderNameOf, ibanOf, type PayerReading } from '../payer-details.js';
import type { BankLinks } from './references.js';
import type { AccountDetails, AuthenticationObject, ChallengeData, TppMessage } from './wire-types.js';

/** `_links` as relation → href. */
export function linksOf(links: Readonly<Record<string, { href: string }>> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, link] of Object.entries(links ?? {})) result[name] = link.href;
  return result;
}

export function toScaMethod(method: AuthenticationObject): ScaMethod {
  return {
    id: method.authenticationMethodId,
    type: method.authenticationType,
    ...(method.name === undefined ? {} : { name: method.name }),
    ...(method.explanation === undefined ? {} : { explanation: method.explanation }),
  };
}

export function toChallenge(challenge: ChallengeData | undefined): ScaChallenge | undefined {
  if (challenge === undefined) return undefined;
  const otpMaxLength = typeof challenge.otpMaxLength === 'string' ? Number.parseInt(challenge.otpMaxLength, 10) : challenge.otpMaxLength;
  return {
    ...(challenge.image === undefined ? {} : { image: challenge.image }),
    ...(challenge.data === undefined ? {} : { data: challenge.data }),
    ...(challenge.imageLink === undefined ? {} : { imageLink: challenge.imageLink }),
    ...(otpMaxLength === undefined || Number.isNaN(otpMaxLength) ? {} : { otpMaxLength }),
    ...(challenge.otpFormat === undefined ? {} : { otpFormat: challenge.otpFormat }),
    ...(challenge.additionalInformation === undefined ? {} : { additionalInformation: challenge.additionalInformation }),
  };
}

export function toBankMessages(messages: readonly TppMessage[] | undefined): { category: string; code: string; text?: string }[] {
  return (messages ?? []).map((message) => ({
    category: message.category,
    code: message.code,
    ...(message.text === undefined ? {} : { text: message.text }),
  }));
}

export function toBankAccount(account: AccountDetails): BankAccount {
  const status = account.status === 'deleted' || account.status === 'blocked' ? account.status : 'enabled';
  return {
    resourceId: account.resourceId,
    iban: account.iban,
    bban: account.bban,
    currency: account.currency,
    name: account.name,
    displayName: account.displayName,
    ownerName: account.ownerName,
    product: account.product,
    cashAccountType: account.cashAccountType,
    status,
    usage: account.usage,
  };
}

/** Link relations that start an authorisation, most specific first. */
const START_LINKS = [
  'startAuthorisationWithPsuAuthentication',
  'startAuthorisationWithAuthenticationMethodSelection',
  'startAuthorisationWithPsuIdentification',
  'startAuthorisationWithTransactionAuthorisation',
  'startAuthorisation',
] as const;

export interface NextStepInput {
  readonly links: BankLinks;
  readonly scaStatus: ScaStatus | undefined;
  readonly scaMethods: readonly ScaMethod[];
  readonly chosenScaMethod: ScaMethod | undefined;
  readonly challenge: ScaChallenge | undefined;
  /** Resolves `scaRedirect` to an absolute URL for the PSU's browser. */
  readonly resolveRedirect: (href: string) => string;
}

/**
 * The next SCA step from one answer's links and status. A final SCA status decides; otherwise the most specific
 * actionable link wins; with none, an open authorisation means the PSU acts elsewhere (decoupled): wait.
 * Returns `undefined` when the answer holds neither (the caller decides from the resource's status).
 */
export function nextScaStep(input: NextStepInput): NextScaStep | undefined {
  const { links, scaStatus } = input;
  if (scaStatus?.state === 'finalised' || scaStatus?.state === 'exempted') return { kind: 'authorised' };
  if (scaStatus?.state === 'failed') return { kind: 'failed' };
  // Method selection comes before the redirect: in the redirect approach the bank may ask for the method first.
  if (links['selectAuthenticationMethod'] !== undefined && input.scaMethods.length > 0) {
    return { kind: 'select-sca-method', methods: input.scaMethods };
  }
  if (links['scaRedirect'] !== undefined) return { kind: 'redirect', url: input.resolveRedirect(links['scaRedirect']) };
  if (links['selectAuthenticationMethod'] !== undefined) return { kind: 'select-sca-method', methods: input.scaMethods };
  if (links['authoriseTransaction'] !== undefined) {
    return {
      kind: 'authorise-transaction',
      ...(input.chosenScaMethod === undefined ? {} : { method: input.chosenScaMethod }),
      ...(input.challenge === undefined ? {} : { challenge: input.challenge }),
    };
  }
  if (links['updatePsuAuthentication'] !== undefined) return { kind: 'authenticate' };
  for (const relation of START_LINKS) {
    if (links[relation] === undefined) continue;
    switch (relation) {
      case 'startAuthorisationWithPsuAuthentication':
        return { kind: 'start-authorisation', needs: 'psu-authentication' };
      case 'startAuthorisationWithAuthenticationMethodSelection':
        return { kind: 'start-authorisation', needs: 'sca-method-selection', methods: input.scaMethods };
      case 'startAuthorisationWithPsuIdentification':
        return { kind: 'start-authorisation', needs: 'psu-identification' };
      default:
        return { kind: 'start-authorisation', needs: 'nothing' };
    }
  }
  if (scaStatus !== undefined || links['scaStatus'] !== undefined) return { kind: 'wait' };
  return undefined;
}

/**
 * The SCA approach in use: the bank's `ASPSP-SCA-Approach` header when it sends one, otherwise what the next step
 * makes evident (a redirect link; password or one-time code requests; waiting after we asked for decoupled).
 */
export function scaApproachOf(header: string | undefined, next: NextScaStep | undefined, requested: ScaApproach): ScaApproach | undefined {
  const declared = header?.trim().toUpperCase();
  if (declared === 'REDIRECT' || declared === 'EMBEDDED' || declared === 'DECOUPLED') return declared;
  if (declared === 'OAUTH') return 'REDIRECT'; // the standard subsumes OAuth under redirect
  switch (next?.kind) {
    case 'redirect':
      return 'REDIRECT';
    case 'authenticate':
    case 'authorise-transaction':
      return 'EMBEDDED';
    case 'start-authorisation':
      return next.needs === 'psu-authentication' ? 'EMBEDDED' : undefined;
    case 'wait':
      return requested === 'DECOUPLED' ? 'DECOUPLED' : undefined;
    default:
      return undefined;
  }
}

/** The authorisation id in a link such as `/v1/payments/p/123/authorisations/abc`. */
export function authorisationIdFromLinks(links: BankLinks): string | undefined {
  for (const relation of ['scaStatus', 'updatePsuAuthentication', 'selectAuthenticationMethod', 'authoriseTransaction']) {
    const href = links[relation];
    if (href === undefined) continue;
    const match = /\/(?:cancellation-)?authorisations\/([^/?#]+)/.exec(href);
    if (match?.[1] !== undefined) return decodeURIComponent(match[1]);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The payer's account
// ---------------------------------------------------------------------------------------------------------------

/** `accountOwner.name` and `debtorName` are `Max70Text`. */
const OWNER_NAME_MAX = 70;

/** The owners' names (`ownerNames` of 1.3.12's status answer, or the payment's `debtorName`), or why left out. */
export interface OwnerNameReading {
  readonly name?: string;
  readonly ignored?: string;
}

/**
 * The account owners' names from a payment status answer (`paymentInitiationStatusResponse-200_json.ownerNames`, new
 * in 1.3.12: an array of `accountOwner` with `name` and an optional `role`, "only delivered after successful SCA").
 * The names of owners (`role` absent or `owner`) are taken, joined as an account name lists joint owners; a legal
 * representative or an authorised user is a person acting on the account, not its holder. `psuName` is not read: it
 * may be someone acting for a company. A malformed list is left out with the reason.
 */
export function ownerNamesOf(statusAnswer: unknown): OwnerNameReading {
  if (typeof statusAnswer !== 'object' || statusAnswer === null) return {};
  const owners = (statusAnswer as Record<string, unknown>)['ownerNames'];
  if (owners === undefined) return {};
  if (!Array.isArray(owners)) return { ignored: 'ownerNames is not an array' };
  const names: string[] = [];
  for (const owner of owners as unknown[]) {
    if (typeof owner !== 'object' || owner === null || Array.isArray(owner))
      return { ignored: 'ownerNames holds an entry that is not an object' };
    const entry = owner as Record<string, unknown>;
    const name = holderNameOf(entry['name'], OWNER_NAME_MAX);
    if (name === undefined) return { ignored: `ownerNames[].name is missing or not text of 1 to ${OWNER_NAME_MAX} characters` };
    const role = entry['role'];
    if (role !== undefined && typeof role !== 'string') return { ignored: 'ownerNames[].role is not text' };
    if (role === undefined || role === 'owner') names.push(name);
  }
  return names.length === 0 ? {} : { name: names.join(', ') };
}

/**
 * The payer's account from the payment resource (`GET …/{paymentId}`, `paymentInitiationWithStatusResponse`): its
 * `debtorAccount` (mandatory there: the account the payer chose at the bank, or the one we sent), with the owners'
 * names of the status answer, else the payment's `debtorName`. Only an IBAN is taken: it is what SEPA refunds are paid
 * to; an account the bank names otherwise (BBAN, PAN, MSISDN, a proprietary id) is left out with the reason.
 */
export function debtorAccountOf(paymentResource: unknown, owners: OwnerNameReading): PayerReading {
  if (typeof paymentResource !== 'object' || paymentResource === null) return ABSENT;
  const resource = paymentResource as Record<string, unknown>;
  const debtor = resource['debtorAccount'];
  if (debtor === undefined) return ABSENT;
  if (typeof debtor !== 'object' || debtor === null || Array.isArray(debtor))
    return { kind: 'malformed', reason: 'debtorAccount is not an object' };
  const reference = debtor as Record<string, unknown>;
  if (reference['iban'] === undefined) return { kind: 'malformed', reason: 'debtorAccount names the account without an IBAN' };
  const iban = ibanOf(reference['iban']);
  if (iban === undefined) return { kind: 'malformed', reason: 'debtorAccount.iban is not a valid IBAN' };
  const debtorName = resource['debtorName'] === undefined ? undefined : holderNameOf(resource['debtorName'], OWNER_NAME_MAX);
  const debtorNameIgnored =
    resource['debtorName'] !== undefined && debtorName === undefined
      ? `debtorName is not text of 1 to ${OWNER_NAME_MAX} characters`
      : undefined;
  const name = owners.name ?? debtorName;
  return found({ type: 'IBAN', value: iban }, name, owners.ignored ?? (name === undefined ? debtorNameIgnored : undefined));
}
