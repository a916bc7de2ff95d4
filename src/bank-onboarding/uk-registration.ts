/**
 * `openpis banks register <bank> [--read|--update|--delete]`: UK dynamic client registration of one bank, from our
 * configured identity (docs/going-live.md, "Register with a UK bank"). The registration the bank answers is kept
 * through a {@link BankRegistrationStore}.
 */
import { describeCertificate } from '../identity/certificate.js';
import {
  DynamicClientRegistration,
  type BankRegistration,
  type BankRegistrationStore,
} from '../connectors/uk-open-banking/registration.js';
/** The bank's refusal of a registration step (its RFC 7591 error and description), for the command line. */
export { RegistrationRefusedError } from '../connectors/uk-open-banking/registration.js';
import { mutualTlsAgent } from '../connectors/transport.js';
import { OnboardingError, payerReturnAddress, ukSettingsOf, ukSigningKeysOf, type OnboardingSetup } from './setup.js';

export type RegistrationAction = 'register' | 'read' | 'update' | 'delete';

export interface RegistrationOutcome {
  readonly bankId: string;
  readonly action: RegistrationAction;
  /** The registration as kept after the action (none after a delete). */
  readonly registration: Omit<BankRegistration, 'registrationAccessToken'> | undefined;
  /** `read`: the bank's own record of it. */
  readonly atTheBank?: Readonly<Record<string, unknown>>;
}

export async function runRegistration(
  setup: OnboardingSetup,
  bankId: string,
  action: RegistrationAction,
  store: BankRegistrationStore,
): Promise<RegistrationOutcome> {
  const bank = setup.bank(bankId);
  const settings = ukSettingsOf(bank);
  const statement = setup.identity.softwareStatement;
  if (statement === undefined) throw new OnboardingError('Set OB_SSA_FILE: the software statement assertion your directory issued');
  // The bank entry's own transport certificate and signing key where it names them, as the service uses them.
  const reach = await setup.reach(bank);
  const keys = ukSigningKeysOf(reach);
  const transportCertificate = reach.identity.tls?.cert;
  const returnAddress = payerReturnAddress(setup.config);
  const redirectUris = statement.redirectUris.length > 0 ? statement.redirectUris : [returnAddress];
  // A redirect bank sends payers back only to a registered address: a registration without ours would pass every
  // check and then fail every payment's authorisation at the bank.
  if ((action === 'register' || action === 'update') && settings.authorisation === 'redirect' && !redirectUris.includes(returnAddress)) {
    throw new OnboardingError(
      `The software statement (OB_SSA_FILE) lists the redirect URIs ${redirectUris.join(', ')}, not ${returnAddress}, where payers come ` +
        `back to us (BASE_URL + /pay/return): ${bank.name} would refuse every payment's authorisation. Add ${returnAddress} to the ` +
        "software's redirect URIs in the directory and set OB_SSA_FILE to the statement it then issues (or correct BASE_URL).",
    );
  }
  const dispatcher = mutualTlsAgent(reach.identity.tls ?? {});
  const client = new DynamicClientRegistration(
    {
      issuer: settings.issuer,
      tokenEndpointAuthMethod: settings.tokenEndpointAuthMethod,
      authorisation: settings.authorisation,
      redirectUris,
    },
    {
      keys,
      softwareStatement: statement.jwt,
      transportSubjectDn: transportCertificate === undefined ? undefined : describeCertificate(transportCertificate).subject,
    },
    { dispatcher, now: setup.now, timeoutMs: settings.timeoutMs },
  );
  try {
    const kept = await store.get(bank.id);
    if (action === 'register') {
      const registration = await client.register();
      await store.save(bank.id, registration);
      return { bankId: bank.id, action, registration: withoutToken(registration) };
    }
    if (kept === undefined)
      throw new OnboardingError(`${bank.id} has no registration to ${action}: run openpis banks register ${bank.id} first`);
    if (action === 'read') return { bankId: bank.id, action, registration: withoutToken(kept), atTheBank: await client.read(kept) };
    if (action === 'update') {
      const registration = await client.update(kept);
      await store.save(bank.id, registration);
      return { bankId: bank.id, action, registration: withoutToken(registration) };
    }
    await client.delete(kept);
    await store.remove(bank.id);
    return { bankId: bank.id, action, registration: undefined };
  } finally {
    await dispatcher.close();
  }
}

function withoutToken(registration: BankRegistration): Omit<BankRegistration, 'registrationAccessToken'> {
  const { registrationAccessToken: _token, ...rest } = registration;
  return rest;
}
