/**
 * `openpis identity show`: our identity towards the banks as configured (docs/going-live.md): each certificate's
 * subject, PSD2 authorisation number, roles and expiry, the UK signing key's `kid` and the software statement. Read
 * from the files the service reads at start, so what it shows is what the banks will see; a file that cannot be
 * used fails here as it would fail the start.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config/config.js';
import { print } from '../output.js';

export function identityCommand(program: Command): Command {
  const identity = program.command('identity').description('our certificates and keys towards the banks');
  identity
    .command('show')
    .description("each certificate's subject, PSD2 authorisation number and roles, expiry; exit status 1 when one has expired")
    .option('--json', 'print JSON')
    .action(showIdentity);
  return identity;
}

export async function showIdentity(options: { json?: boolean }): Promise<void> {
  const config = loadConfig();
  const [{ loadBankIdentity, certificateWarnings }, { BankIdentities }, { loadCatalogue }] = await Promise.all([
    import('../../identity/identity.js'),
    import('../../identity/bank-identities.js'),
    import('../../providers/catalogue.js'),
  ]);
  const identity = loadBankIdentity(config.bankIdentity);
  // The bank entries that name their own certificate files, read as the service reads them at start.
  const identities = new BankIdentities(identity, undefined);
  const catalogue = loadCatalogue(config.providerCatalogueFile, config.sandboxBank.url);
  identities.load((['sandbox', 'production'] as const).flatMap((environment) => catalogue.banks(environment)));
  const reports = identities.reports(new Date());
  const warnings = certificateWarnings(reports);
  const signingKey =
    config.openBankingSigningKey === undefined
      ? { configured: false as const }
      : { configured: true as const, keyId: config.openBankingSigningKey.keyId, keyFile: config.openBankingSigningKey.keyFile };
  const softwareStatement =
    identity.softwareStatement === undefined
      ? undefined
      : {
          softwareId: identity.softwareStatement.softwareId,
          organisationId: identity.softwareStatement.organisationId,
          issuer: identity.softwareStatement.issuer,
          issuedAt: identity.softwareStatement.issuedAt,
          redirectUris: identity.softwareStatement.redirectUris,
        };
  const shown = {
    certificates: reports.map((report) => ({
      use: report.use,
      bank: report.bank,
      purpose: report.purpose,
      state: report.state,
      daysLeft: report.daysLeft,
      ...report.certificate,
    })),
    openBankingSigningKey: signingKey,
    softwareStatement,
    trustedBankCaFile: config.bankIdentity.bankCaFile,
    warnings,
  };
  print(shown, options.json === true, () => {
    const lines: string[] = [];
    const configured = new Set(reports.map((report) => report.use));
    for (const [use, purpose, settings] of [
      ['qwac', 'Berlin Group mutual TLS (QWAC)', 'QWAC_CERT_FILE/QWAC_KEY_FILE or QWAC_P12_FILE'],
      ['qseal', 'Berlin Group request signatures (QSealC)', 'QSEAL_CERT_FILE/QSEAL_KEY_FILE or QSEAL_P12_FILE'],
      ['ob-transport', 'UK Open Banking mutual TLS (transport)', 'OB_TRANSPORT_CERT_FILE/OB_TRANSPORT_KEY_FILE or OB_TRANSPORT_P12_FILE'],
    ] as const) {
      if (!configured.has(use)) lines.push(`${purpose}: not configured (${settings})`, '');
    }
    for (const report of reports) {
      const certificate = report.certificate;
      lines.push(
        `${report.bank === undefined ? '' : `${report.bank}'s own `}${report.purpose}: ${report.state === 'valid' ? 'valid' : report.state.toUpperCase()}`,
        `  subject:        ${certificate.subject}`,
        `  authorisation:  ${certificate.organisationIdentifier ?? '(no organizationIdentifier in the subject)'}`,
        `  PSD2 roles:     ${certificate.psd2 === undefined ? '(no PSD2 statement)' : `${certificate.psd2.roles.join(', ')} (${certificate.psd2.authorityName}, ${certificate.psd2.authorityId})`}`,
        `  issuer:         ${certificate.issuer}`,
        `  serial:         ${certificate.serialNumber}`,
        `  valid:          ${certificate.notBefore} to ${certificate.notAfter} (${report.daysLeft} days left)`,
        `  SHA-256:        ${certificate.fingerprintSha256}`,
        '',
      );
    }
    lines.push(
      signingKey.configured
        ? `UK Open Banking signing key: kid ${signingKey.keyId} (${signingKey.keyFile})`
        : 'UK Open Banking signing key: not configured (OB_SIGNING_KEY_FILE, OB_SIGNING_KEY_ID): a throw-away key is made at start, which only the sandbox banks accept',
      softwareStatement === undefined
        ? 'Software statement (SSA): not configured (OB_SSA_FILE): UK banks cannot be registered'
        : `Software statement (SSA): software_id ${softwareStatement.softwareId ?? '?'}, org_id ${softwareStatement.organisationId ?? '?'}, issued by ${softwareStatement.issuer ?? '?'}`,
    );
    if (warnings.length > 0) lines.push('', ...warnings.map((warning) => `WARNING: ${warning}`));
    return lines.join('\n');
  });
  if (reports.some((report) => report.state === 'expired' || report.state === 'not-yet-valid')) process.exitCode = 1;
}
