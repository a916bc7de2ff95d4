/**
 * A bank entry's own identity (its settings' optional `identity`): certificate and key files that replace the
 * process's towards this bank only (docs/going-live.md, "A bank with its own certificates"). Only file names and the
 * name of the environment variable holding a PKCS#12 password sit in the entry, never a key or a password.
 */
import { Type } from 'typebox';

const FileName = Type.String({ minLength: 1 });

/** A certificate and its key: a PEM pair, or a PKCS#12 file whose password is in the named environment variable. */
export const CredentialFilesSchema = Type.Union([
  Type.Object({ certFile: FileName, keyFile: FileName }, { additionalProperties: false }),
  Type.Object({ p12File: FileName, p12PasswordEnv: Type.String({ pattern: '^[A-Z_][A-Z0-9_]*$' }) }, { additionalProperties: false }),
]);

/** Berlin Group: the QWAC for mutual TLS and the QSealC for request signatures. */
export const BerlinGroupIdentitySchema = Type.Object(
  { qwac: Type.Optional(CredentialFilesSchema), qseal: Type.Optional(CredentialFilesSchema) },
  { additionalProperties: false, minProperties: 1 },
);

/** UK Open Banking: the transport certificate (mutual TLS) and the signing key with its `kid` at the directory. */
export const UkOpenBankingIdentitySchema = Type.Object(
  {
    transport: Type.Optional(CredentialFilesSchema),
    signingKey: Type.Optional(Type.Object({ keyFile: FileName, keyId: Type.String({ minLength: 1 }) }, { additionalProperties: false })),
  },
  { additionalProperties: false, minProperties: 1 },
);
