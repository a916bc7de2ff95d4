/**
 * Our UK Open Banking identity at start: the signing key (the operator's, or a throw-away one for the sandbox), and
 * the client registrations the sandbox banks need to trust it. Composition, beside app.ts: it reads the catalogue
 * and configuration and feeds the connectors and the sandbox bank.
 */
import { readFileSync } from 'node:fs';
import type { Config } from './config/config.js';
import { publicKeySet, signingKeysFromPem, throwAwaySigningKeys, type UkOpenBankingSettings } from './connectors/uk-open-banking/index.js';
import type { OpenBankingSigningKeys } from './connectors/index.js';
import type { ProviderCatalogue } from './providers/catalogue.js';
import type { UkClientRegistration } from './sandbox-bank/uk-open-banking/index.js';

/** The operator's key when configured, else one made for this process (the sandbox banks are told it). */
export async function openBankingSigningKeys(config: Config): Promise<OpenBankingSigningKeys> {
  const configured = config.openBankingSigningKey;
  if (configured === undefined) return throwAwaySigningKeys();
  return signingKeysFromPem(readFileSync(configured.keyFile, 'utf8'), configured.keyId);
}

/** The UK banks of the catalogue served by our sandbox bank (their issuer under its address). */
export function ukSandboxBankSettings(catalogue: ProviderCatalogue, sandboxBankUrl: string): UkOpenBankingSettings[] {
  const prefix = `${sandboxBankUrl.replace(/\/+$/, '')}/uk/`;
  return (['sandbox', 'production'] as const)
    .flatMap((environment) => catalogue.banks(environment))
    .map((bank) => bank.connector)
    .filter((settings): settings is UkOpenBankingSettings => settings.standard === 'uk-open-banking' && settings.issuer.startsWith(prefix));
}

/**
 * What the UK sandbox banks must know of us: one registration per client id the catalogue uses with them, with our
 * public key, the return URL and the signatures' issuer. (A real bank learns this through dynamic client
 * registration with a software statement from the Open Banking Directory.)
 */
export async function ukSandboxClients(
  keys: OpenBankingSigningKeys,
  catalogue: ProviderCatalogue,
  config: Pick<Config, 'baseUrl' | 'sandboxBank'>,
): Promise<UkClientRegistration[]> {
  const jwks = await publicKeySet(keys);
  const byClient = new Map<string, UkClientRegistration>();
  for (const settings of ukSandboxBankSettings(catalogue, config.sandboxBank.url)) {
    if (byClient.has(settings.clientId)) continue;
    byClient.set(settings.clientId, {
      clientId: settings.clientId,
      jwks,
      redirectUris: [`${config.baseUrl}/pay/return`],
      signingIssuer: settings.jwsIssuer,
    });
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
  catalogue: ProviderCatalogue,
  sandboxBankUrl: string,
  log: { warn(object: object, message: string): void },
): Promise<void> {
  const issuers = new Map(ukSandboxBankSettings(catalogue, sandboxBankUrl).map((settings) => [settings.clientId, settings.issuer]));
  for (const client of clients) {
    const issuer = issuers.get(client.clientId);
    if (issuer === undefined) continue;
    try {
      const response = await fetch(`${issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: client.clientId, jwks: client.jwks, redirect_uris: client.redirectUris, jws_issuer: client.signingIssuer }),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) log.warn({ status: response.status, issuer }, 'the UK sandbox bank refused our client registration');
    } catch (error) {
      log.warn({ issuer, error: error instanceof Error ? error.message : String(error) }, 'the UK sandbox bank could not be reached to register our client; restart once it runs');
    }
  }
}
