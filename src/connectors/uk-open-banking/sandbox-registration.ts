/**
 * Our UK Open Banking identity as the sandbox banks learn it: the client registrations they need to trust our
 * signing key (keys.ts), and, for a sandbox bank started on its own, telling it through its registration endpoint.
 * A real bank learns the same through dynamic client registration with a software statement from the Open Banking
 * Directory. The composition root (src/composition.ts, src/app.ts) passes the catalogue's connector settings in.
 */
import type { JSONWebKeySet } from 'jose';
import type { ConnectorSettings } from '../settings.js';
import { publicKeySet } from './keys.js';
import type { SigningKeys } from './jose.js';
import type { UkOpenBankingSettings } from './settings.js';

/** What a UK sandbox bank must know of one client id of ours (the sandbox bank's own type has the same shape). */
export interface UkClientRegistration {
  readonly clientId: string;
  readonly jwks: JSONWebKeySet;
  readonly redirectUris: readonly string[];
  readonly signingIssuer: string;
}

/** The UK banks among these connector settings that our sandbox bank serves (their issuer under its address). */
export function ukSandboxBankSettings(settings: readonly ConnectorSettings[], sandboxBankUrl: string): UkOpenBankingSettings[] {
  const prefix = `${sandboxBankUrl.replace(/\/+$/, '')}/uk/`;
  return settings.filter((bank): bank is UkOpenBankingSettings => bank.standard === 'uk-open-banking' && bank.issuer.startsWith(prefix));
}

/**
 * One registration per client id the UK sandbox banks are used with: our public key, the return URL and the
 * signatures' issuer.
 */
export async function ukSandboxClients(
  keys: SigningKeys,
  sandboxBanks: readonly UkOpenBankingSettings[],
  returnUrl: string,
): Promise<UkClientRegistration[]> {
  const jwks = await publicKeySet(keys);
  const byClient = new Map<string, UkClientRegistration>();
  for (const settings of sandboxBanks) {
    if (byClient.has(settings.clientId)) continue;
    byClient.set(settings.clientId, { clientId: settings.clientId, jwks, redirectUris: [returnUrl], signingIssuer: settings.jwsIssuer });
  }
  return [...byClient.values()];
}

/**
 * Tells a sandbox bank started on its own (`openpis sandbox-bank`, SANDBOX_BANK_URL) who we are, through its client
 * registration endpoint. Best effort at start: a sandbox not running yet only means its UK banks refuse us until the
 * service restarts, which the warning says.
 */
export async function registerWithExternalSandbox(
  clients: readonly UkClientRegistration[],
  sandboxBanks: readonly UkOpenBankingSettings[],
  log: { warn(object: object, message: string): void },
): Promise<void> {
  const issuers = new Map(sandboxBanks.map((settings) => [settings.clientId, settings.issuer]));
  for (const client of clients) {
    const issuer = issuers.get(client.clientId);
    if (issuer === undefined) continue;
    try {
      const response = await fetch(`${issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: client.clientId,
          jwks: client.jwks,
          redirect_uris: client.redirectUris,
          jws_issuer: client.signingIssuer,
        }),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) log.warn({ status: response.status, issuer }, 'the UK sandbox bank refused our client registration');
    } catch (error) {
      log.warn(
        { issuer, error: error instanceof Error ? error.message : String(error) },
        'the UK sandbox bank could not be reached to register our client; restart once it runs',
      );
    }
  }
}
