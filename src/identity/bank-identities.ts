/**
 * Our identity towards each bank, for the connectors: per standard, the process's
 * certificates and keys (src/identity/, loaded at start), replaced for a bank whose entry names its own files (its
 * settings' `identity`, src/connectors/identity-settings.ts). Each distinct identity is one object, made once, so the
 * connectors' connection pools, signers and tokens are kept per identity.
 */
import type { ConnectorIdentity, IdentityResolver, OpenBankingSigningKeys, TlsOptions } from '../connectors/index.js';
import type { ConnectorSettings, Standard } from '../connectors/settings.js';
import {
  certificateReports,
  type BankIdentity,
  type CertificateReport,
  type CertificateUse,
  type CertifiedKey,
  type IdentityCertificate,
} from './identity.js';
import { loadIdentityOverride, type IdentityOverride, type IdentityOverrideFiles } from './overrides.js';

/** A bank as far as its identity goes: its name (for messages) and its connector settings. */
export interface BankWithSettings {
  readonly name: string;
  readonly connector: ConnectorSettings;
}

export class BankIdentities {
  private readonly byStandard: { readonly [S in Standard]: ConnectorIdentity };
  /** Identities of the bank entries that name their own files, by standard and files. */
  private readonly overridden = new Map<string, { readonly identity: ConnectorIdentity; readonly override: IdentityOverride }>();
  /** The bank entries' own certificates, by bank name (for the reports). */
  private readonly overrideCertificates = new Map<string, readonly IdentityCertificate[]>();

  constructor(
    private readonly identity: BankIdentity,
    openBankingKeys: OpenBankingSigningKeys | undefined,
    private readonly environment: NodeJS.ProcessEnv = process.env,
  ) {
    const berlinGroupTls = this.tls(identity.qwac);
    const ukTls = this.tls(identity.openBankingTransport);
    this.byStandard = {
      'berlin-group': {
        ...(berlinGroupTls === undefined ? {} : { tls: berlinGroupTls }),
        ...(identity.qseal === undefined ? {} : { signing: signingKeys(identity.qseal) }),
      },
      'uk-open-banking': {
        ...(openBankingKeys === undefined ? {} : { openBankingKeys }),
        ...(ukTls === undefined ? {} : { tls: ukTls }),
      },
    };
  }

  /**
   * Reads the own files of every bank entry that names some, so a file that cannot be used stops the start (or the
   * command) with the bank's name, rather than failing a payment later. Throws a `BankIdentityError`.
   */
  load(banks: readonly BankWithSettings[]): void {
    for (const bank of banks) {
      const files = overrideFiles(bank.connector);
      if (files === undefined) continue;
      const { override } = this.overrideOf(bank.connector, files, bank.name);
      this.overrideCertificates.set(
        bank.name,
        override.certificates.map((certificate) => ({ ...certificate, bank: bank.name })),
      );
    }
  }

  /** The connectors' resolver: the process's identity per standard, or the bank entry's own. */
  readonly resolve: IdentityResolver = (settings) => {
    const files = overrideFiles(settings);
    if (files === undefined) return this.byStandard[settings.standard];
    return this.overrideOf(settings, files, bankAddress(settings)).identity;
  };

  /**
   * What reaches this one bank, as the connectors reach it: the identity {@link resolve} gives, and the certificates
   * it is made of with their validity at `now` (the bank entry's own for the uses it names, the process's for the
   * rest). For the go-live tools (`openpis banks register`, `banks check`), which must use what the service uses.
   * Throws a `BankIdentityError` naming the bank when its own files cannot be used.
   */
  forBank(bank: BankWithSettings, now: Date): { readonly identity: ConnectorIdentity; readonly certificates: CertificateReport[] } {
    const uses = CERTIFICATE_USES_BY_STANDARD[bank.connector.standard];
    const files = overrideFiles(bank.connector);
    const own = files === undefined ? undefined : this.overrideOf(bank.connector, files, bank.name);
    const ownCertificates = (own?.override.certificates ?? []).map((certificate) => ({ ...certificate, bank: bank.name }));
    // A UK bank's own signing key (a key and its kid, no certificate) replaces the process's signing certificate too.
    const replaced = new Set([
      ...ownCertificates.map((certificate) => certificate.use),
      ...(own?.override.signingKey === undefined ? [] : ['ob-signing']),
    ]);
    const certificates = certificateReports(this.identity, now, ownCertificates).filter(
      (report) => uses.includes(report.use) && (report.bank !== undefined || !replaced.has(report.use)),
    );
    return { identity: own?.identity ?? this.byStandard[bank.connector.standard], certificates };
  }

  /** Every certificate with its validity at `now`: the process's, then the bank entries' own. */
  reports(now: Date): CertificateReport[] {
    return certificateReports(this.identity, now, [...this.overrideCertificates.values()].flat());
  }

  /** The bank entry's identity, read once per distinct set of files (banks naming the same files share it). */
  private overrideOf(
    settings: ConnectorSettings,
    files: IdentityOverrideFiles,
    bank: string,
  ): { readonly identity: ConnectorIdentity; readonly override: IdentityOverride } {
    const key = `${settings.standard} ${JSON.stringify(settings.identity)}`;
    let known = this.overridden.get(key);
    if (known === undefined) {
      const override = loadIdentityOverride(bank, files, this.environment);
      known = { identity: this.merged(settings.standard, override), override };
      this.overridden.set(key, known);
    }
    return known;
  }

  private merged(standard: Standard, override: IdentityOverride): ConnectorIdentity {
    const base = this.byStandard[standard];
    const tls = override.tls === undefined ? base.tls : this.tls(override.tls);
    const signing = override.signing === undefined ? base.signing : signingKeys(override.signing);
    const openBankingKeys = override.signingKey ?? base.openBankingKeys;
    return {
      ...(tls === undefined ? {} : { tls }),
      ...(signing === undefined ? {} : { signing }),
      ...(openBankingKeys === undefined ? {} : { openBankingKeys }),
    };
  }

  /** Mutual TLS with `pair`, trusting BANK_CA_FILE's CAs where given; undefined when there is neither. */
  private tls(pair: CertifiedKey | undefined): TlsOptions | undefined {
    const ca = this.identity.bankCas === undefined ? {} : { ca: this.identity.bankCas };
    if (pair === undefined) return this.identity.bankCas === undefined ? undefined : ca;
    return { cert: pair.certificatePem, key: pair.privateKeyPem, ...ca };
  }
}

/** The certificates a bank of each standard is reached with. */
const CERTIFICATE_USES_BY_STANDARD: { readonly [S in Standard]: readonly CertificateUse[] } = {
  'berlin-group': ['qwac', 'qseal'],
  'uk-open-banking': ['ob-transport', 'ob-signing'],
};

function signingKeys(pair: CertifiedKey): NonNullable<ConnectorIdentity['signing']> {
  return { certificatePem: pair.certificatePem, privateKeyPem: pair.privateKeyPem };
}

/** What a bank entry's `identity` overrides, in the standard-neutral terms of src/identity/overrides.ts. */
export function overrideFiles(settings: ConnectorSettings): IdentityOverrideFiles | undefined {
  if (settings.standard === 'berlin-group') {
    const own = settings.identity;
    if (own === undefined) return undefined;
    return {
      ...(own.qwac === undefined ? {} : { tls: { files: own.qwac, use: 'qwac' as const, field: 'identity.qwac' } }),
      ...(own.qseal === undefined ? {} : { signing: { files: own.qseal, use: 'qseal' as const, field: 'identity.qseal' } }),
    };
  }
  const own = settings.identity;
  if (own === undefined) return undefined;
  return {
    ...(own.transport === undefined ? {} : { tls: { files: own.transport, use: 'ob-transport' as const, field: 'identity.transport' } }),
    ...(own.signingKey === undefined ? {} : { signingKey: own.signingKey }),
  };
}

function bankAddress(settings: ConnectorSettings): string {
  return settings.standard === 'berlin-group' ? `the bank at ${settings.baseUrl}` : `the bank at ${settings.issuer}`;
}
