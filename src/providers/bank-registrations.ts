/**
 * Where a UK bank's dynamic client registration lives: among the bank's secrets in the `banks` table, sealed under
 * SECRET_KEYS with the others (bank-store.ts), so a registration made by `openpis banks register` reaches every
 * process without a restart, as any change of a bank does. One function, {@link withRegistration}, puts it into the
 * bank's connector settings, for the service (bank-registry.ts) and for `openpis banks check` alike.
 */
import type { BankRegistration, BankRegistrationStore } from '../connectors/uk-open-banking/registration.js';
import type { UkOpenBankingSettings } from '../connectors/uk-open-banking/settings.js';
import type { BankSecrets, BankStore } from './bank-store.js';

/** The secret names a registration is kept under; `clientId` is also what an operator stores by hand. */
const REGISTRATION_SECRETS = [
  'clientId',
  'registrationAccessToken',
  'registrationClientUri',
  'tokenEndpointAuthMethod',
  'jwsIssuer',
  'registrationAnswer',
] as const;

type AuthMethod = BankRegistration['tokenEndpointAuthMethod'];

/** What of a registration the connector settings take: the client id and, once registered, how we sign and authenticate. */
export type RegisteredSettings = Pick<BankRegistration, 'clientId'> &
  Partial<Pick<BankRegistration, 'jwsIssuer' | 'tokenEndpointAuthMethod'>>;

/** The bank's UK settings with what its registration (or a client id stored by hand) sets in their place. */
export function withRegistration(settings: UkOpenBankingSettings, registered: RegisteredSettings | undefined): UkOpenBankingSettings {
  if (registered === undefined) return settings;
  return {
    ...settings,
    clientId: registered.clientId,
    ...(registered.jwsIssuer === undefined ? {} : { jwsIssuer: registered.jwsIssuer }),
    ...(registered.tokenEndpointAuthMethod === undefined ? {} : { tokenEndpointAuthMethod: registered.tokenEndpointAuthMethod }),
  };
}

/** What of the bank's secrets overlays its settings: none without a client id. */
export function registeredSettingsOf(secrets: BankSecrets | undefined): RegisteredSettings | undefined {
  const clientId = secrets?.['clientId'];
  if (clientId === undefined) return undefined;
  return { clientId, jwsIssuer: secrets?.['jwsIssuer'], tokenEndpointAuthMethod: authMethodOf(secrets?.['tokenEndpointAuthMethod']) };
}

function authMethodOf(value: string | undefined): AuthMethod | undefined {
  return value === 'private_key_jwt' || value === 'tls_client_auth' ? value : undefined;
}

/** Registrations kept with the bank's other secrets (the bank must be in the `banks` table). */
export class BankRegistrationSecrets implements BankRegistrationStore {
  constructor(private readonly banks: Pick<BankStore, 'secretsOf' | 'setSecrets'>) {}

  /** The registration, when one was made (a client id stored by hand alone is none: it has no issuer nor method). */
  async get(bankId: string): Promise<BankRegistration | undefined> {
    const secrets = await this.banks.secretsOf(bankId);
    const clientId = secrets?.['clientId'];
    const jwsIssuer = secrets?.['jwsIssuer'];
    const tokenEndpointAuthMethod = authMethodOf(secrets?.['tokenEndpointAuthMethod']);
    if (clientId === undefined || jwsIssuer === undefined || tokenEndpointAuthMethod === undefined) return undefined;
    const answer = secrets?.['registrationAnswer'];
    return {
      clientId,
      jwsIssuer,
      tokenEndpointAuthMethod,
      registrationAccessToken: secrets?.['registrationAccessToken'],
      registrationClientUri: secrets?.['registrationClientUri'],
      answer: answer === undefined ? {} : (JSON.parse(answer) as Readonly<Record<string, unknown>>),
    };
  }

  /** Kept beside the bank's other secrets (a client secret stays); the previous registration's are replaced. */
  async save(bankId: string, registration: BankRegistration): Promise<void> {
    const kept: Record<string, string> = {
      clientId: registration.clientId,
      tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
      jwsIssuer: registration.jwsIssuer,
      registrationAnswer: JSON.stringify(registration.answer),
    };
    if (registration.registrationAccessToken !== undefined) kept['registrationAccessToken'] = registration.registrationAccessToken;
    if (registration.registrationClientUri !== undefined) kept['registrationClientUri'] = registration.registrationClientUri;
    await this.banks.setSecrets(bankId, { ...withoutRegistration(await this.banks.secretsOf(bankId)), ...kept });
  }

  /** The registration's secrets go (the client id with them: the bank no longer knows it); the others stay. */
  async remove(bankId: string): Promise<void> {
    const others = withoutRegistration(await this.banks.secretsOf(bankId));
    await this.banks.setSecrets(bankId, Object.keys(others).length === 0 ? undefined : others);
  }
}

function withoutRegistration(secrets: BankSecrets | undefined): Record<string, string> {
  const names: readonly string[] = REGISTRATION_SECRETS;
  return Object.fromEntries(Object.entries(secrets ?? {}).filter(([name]) => !names.includes(name)));
}
