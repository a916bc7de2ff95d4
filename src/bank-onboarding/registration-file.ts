/**
 * The interim home of UK registrations until banks live in the database: a JSON file (by default
 * `bank-registrations.json`, `--registrations-file`), one entry per provider id, the registration access token sealed
 * under SECRET_KEYS like every other stored secret. The bank registry implements the same
 * {@link BankRegistrationStore} with its sealed per-bank secrets, and this file goes.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { BankRegistration, BankRegistrationStore } from '../connectors/uk-open-banking/registration.js';
import { SecretBox } from '../crypto/secret-box.js';
import type { SecretKey } from '../crypto/secret-box.js';

type StoredRegistration = Omit<BankRegistration, 'registrationAccessToken'> & { readonly sealedRegistrationAccessToken?: string };

/** The secret's sealing context: a token copied to another bank's entry does not open. */
const sealingContext = (bankId: string): string => `bank_registrations.registration_access_token:${bankId}`;

export class RegistrationFileStore implements BankRegistrationStore {
  private readonly box: SecretBox;

  constructor(
    private readonly file: string,
    secretKeys: readonly SecretKey[],
  ) {
    if (secretKeys.length === 0) throw new RegistrationStoreError('Set SECRET_KEYS: the registration access token is kept sealed under it');
    this.box = new SecretBox(secretKeys);
  }

  async get(bankId: string): Promise<BankRegistration | undefined> {
    const stored = this.read()[bankId];
    if (stored === undefined) return undefined;
    const { sealedRegistrationAccessToken: sealed, ...rest } = stored;
    return { ...rest, registrationAccessToken: sealed === undefined ? undefined : this.box.open(sealed, sealingContext(bankId)) };
  }

  async save(bankId: string, registration: BankRegistration): Promise<void> {
    const { registrationAccessToken: token, ...rest } = registration;
    this.write({
      ...this.read(),
      [bankId]: {
        ...rest,
        ...(token === undefined ? {} : { sealedRegistrationAccessToken: this.box.seal(token, sealingContext(bankId)) }),
      },
    });
  }

  async remove(bankId: string): Promise<void> {
    const { [bankId]: _removed, ...rest } = this.read();
    this.write(rest);
  }

  private read(): Record<string, StoredRegistration> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new RegistrationStoreError(`${this.file} cannot be read`);
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      return parsed as Record<string, StoredRegistration>;
    } catch {
      throw new RegistrationStoreError(`${this.file} is not a registrations file (a JSON object by provider id)`);
    }
  }

  /** Written whole to a temporary file and renamed over the old one: a crash leaves the old or the new, never half. */
  private write(registrations: Record<string, StoredRegistration>): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(registrations, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

/** The registrations file cannot be used: the message says what to fix. */
export class RegistrationStoreError extends Error {
  override readonly name = 'RegistrationStoreError';
}
