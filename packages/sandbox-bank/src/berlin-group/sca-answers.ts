/**
 * The SCA steps the API answers with, for payments and consents alike: the links of a new resource per approach,
 * what follows a successful login (embedded) or identification (decoupled), and the SCA method objects.
 */
import type { FastifyRequest } from 'fastify';
import type { ScaMethod } from '../shared/fixtures.js';
import type { SandboxBankDefinition } from './banks.js';
import { bankUrl, booleanHeader, type BankContext } from './context.js';
import type { Authorisation, Resource } from './state.js';
import { authorisationPath, link, resourcePath, type Links } from './xs2a-support.js';

export function methodObject(method: ScaMethod) {
  return {
    authenticationType: method.authenticationType,
    authenticationMethodId: method.authenticationMethodId,
    name: method.name,
  };
}

function challenge(method: ScaMethod) {
  return {
    otpMaxLength: 6,
    otpFormat: 'integer' as const,
    additionalInformation: `Enter the code sent via ${method.name}.`,
  };
}

/** The answer once an SCA method is chosen: the code has been sent, authorise with it. */
export function methodSelectedAnswer(
  context: BankContext,
  bank: SandboxBankDefinition,
  resource: Resource,
  authorisation: Authorisation,
  method: ScaMethod,
): Record<string, unknown> {
  const scaLink = link(context, bank, authorisationPath(resource, authorisation.id));
  return {
    scaStatus: 'scaMethodSelected',
    chosenScaMethod: methodObject(method),
    challengeData: challenge(method),
    _links: { authoriseTransaction: scaLink, scaStatus: scaLink },
  };
}

/**
 * Settles what the payer's identity decides before SCA: the debtor account of a payment (`pickFirst`: take the
 * first fitting account rather than ask), the accounts of a consent (`grantConsentAccounts`). Returns the failed
 * answer when the payment cannot go on.
 */
function prepareResource(
  context: BankContext,
  bank: SandboxBankDefinition,
  resource: Resource,
  authorisation: Authorisation,
  options: { readonly pickFirst: boolean; readonly grantConsentAccounts: boolean },
): Record<string, unknown> | undefined {
  const { state } = context;
  if (resource.kind === 'payment') {
    const problem = state.resolveDebtor(resource, options.pickFirst);
    if (problem === undefined) return undefined;
    state.failResource(resource, problem, authorisation);
    return {
      scaStatus: 'failed',
      psuMessage: problem.text,
      _links: { scaStatus: link(context, bank, authorisationPath(resource, authorisation.id)) },
    };
  }
  if (options.grantConsentAccounts) state.grantRequestedAccountsUnlessChosen(resource);
  return undefined;
}

/**
 * After the payer is authenticated (embedded): the next step depends on the payer's SCA methods. Returns the
 * fields of the answer.
 */
export function afterAuthentication(
  context: BankContext,
  bank: SandboxBankDefinition,
  resource: Resource,
  authorisation: Authorisation,
): Record<string, unknown> {
  const { state } = context;
  const failed = prepareResource(context, bank, resource, authorisation, { pickFirst: true, grantConsentAccounts: true });
  if (failed !== undefined) return failed;
  const scaLink = link(context, bank, authorisationPath(resource, authorisation.id));
  const methods = state.scaMethods(resource);
  const [only] = methods;
  if (only === undefined) {
    state.completeAuthorisation(authorisation, resource, 'exempted');
    return { scaStatus: 'exempted', _links: { scaStatus: scaLink, status: link(context, bank, `${resourcePath(resource)}/status`) } };
  }
  if (methods.length === 1) {
    state.selectScaMethod(authorisation, only.authenticationMethodId);
    return methodSelectedAnswer(context, bank, resource, authorisation, only);
  }
  state.markAuthenticated(authorisation);
  return {
    scaStatus: 'psuAuthenticated',
    scaMethods: methods.map(methodObject),
    _links: { selectAuthenticationMethod: scaLink, scaStatus: scaLink },
  };
}

/** Starts the decoupled SCA: the payer confirms in the bank's app (a sandbox page). */
export function startDecoupled(
  context: BankContext,
  bank: SandboxBankDefinition,
  resource: Resource,
  authorisation: Authorisation,
): Record<string, unknown> {
  const { state } = context;
  const failed = prepareResource(context, bank, resource, authorisation, { pickFirst: false, grantConsentAccounts: false });
  if (failed !== undefined) return failed;
  const scaLink = link(context, bank, authorisationPath(resource, authorisation.id));
  if (state.scaMethods(resource).length === 0) {
    if (resource.kind === 'payment' && resource.debtorIban === undefined) state.resolveDebtor(resource, true);
    state.completeAuthorisation(authorisation, resource, 'exempted');
    return { scaStatus: 'exempted', _links: { scaStatus: scaLink } };
  }
  state.markDecoupledStarted(authorisation);
  const appUrl = bankUrl(context, bank, `/decoupled/${authorisation.pageToken}`);
  return {
    scaStatus: 'started',
    psuMessage: `Please confirm in your ${bank.name} app. (Sandbox: the app is simulated at ${appUrl})`,
    _links: { scaStatus: scaLink, sandboxDecoupledApp: { href: appUrl } },
  };
}

/** The initial links of a freshly created payment or consent, per SCA approach. */
export function initiationLinks(context: BankContext, request: FastifyRequest, bank: SandboxBankDefinition, resource: Resource): Links {
  const self = link(context, bank, resourcePath(resource));
  const status = link(context, bank, `${resourcePath(resource)}/status`);
  const start = link(context, bank, `${resourcePath(resource)}/authorisations`);
  switch (resource.approach) {
    case 'REDIRECT': {
      if (booleanHeader(request, 'TPP-Explicit-Authorisation-Preferred') === true) return { startAuthorisation: start, self, status };
      const authorisation = context.state.createAuthorisation(resource);
      return {
        scaRedirect: link(context, bank, `/sca/${authorisation.pageToken}`),
        self,
        status,
        scaStatus: link(context, bank, authorisationPath(resource, authorisation.id)),
      };
    }
    case 'EMBEDDED':
      return { startAuthorisationWithPsuAuthentication: start, self, status };
    case 'DECOUPLED':
      return resource.payerId === undefined
        ? { startAuthorisationWithPsuIdentification: start, self, status }
        : { startAuthorisation: start, self, status };
  }
}
