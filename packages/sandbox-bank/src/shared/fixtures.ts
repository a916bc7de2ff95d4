/**
 * Test payers of the sandbox bank, as data: credentials, SCA methods, accounts and the outcome their payments get.
 * The built-in set lives in `fixtures/test-payers.json` and is documented in docs/sandbox-bank.md; tests may pass
 * their own. Everything is validated at load, so a typo in a fixture fails at start-up, not in the middle of a flow.
 */
import { readFileSync } from 'node:fs';
import { isValidIBAN } from 'ibantools';
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { FaultSchema, OperationSchema, type Fault, type OperationName } from './faults.js';
import { toMinor } from './money.js';

const ScaMethodSchema = Type.Object(
  {
    authenticationMethodId: Type.String({ minLength: 1, maxLength: 35 }),
    authenticationType: Type.Union([
      Type.Literal('SMS_OTP'),
      Type.Literal('CHIP_OTP'),
      Type.Literal('PHOTO_OTP'),
      Type.Literal('PUSH_OTP'),
      Type.Literal('SMTP_OTP'),
    ]),
    name: Type.String({ minLength: 1, maxLength: 70 }),
  },
  { additionalProperties: false },
);

const AccountSchema = Type.Object(
  {
    resourceId: Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' }),
    iban: Type.String({ pattern: '^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{1,30}$' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    name: Type.String({ minLength: 1, maxLength: 70 }),
    product: Type.String({ minLength: 1, maxLength: 35 }),
    /** Opening balance, a decimal string in the account's currency. */
    balance: Type.String({ pattern: '^[0-9]{1,14}(\\.[0-9]{1,3})?$' }),
  },
  { additionalProperties: false },
);

const OutcomeSchema = Type.Object(
  {
    /** settle: funds check, debit, then `finalStatus`; reject: RJCT at execution; pending: ACSP for ever. */
    execution: Type.Union([Type.Literal('settle'), Type.Literal('reject'), Type.Literal('pending')]),
    finalStatus: Type.Optional(Type.Union([Type.Literal('ACSC'), Type.Literal('ACCC')])),
    /** Seconds the payment stays ACTC after SCA before execution (default 0). */
    technicalValidationSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
    /** Seconds it stays ACSP after execution before `finalStatus` (default 0). */
    settlementSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
    /** SCA fails even with the right one-time code. */
    scaFails: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const PayerFaultSchema = Type.Object(
  {
    operations: Type.Optional(Type.Array(OperationSchema, { minItems: 1 })),
    /** Shorthand for a single operation. */
    operation: Type.Optional(OperationSchema),
    fault: FaultSchema,
  },
  { additionalProperties: false },
);

const PayerSchema = Type.Object(
  {
    psuId: Type.String({ pattern: '^[a-z0-9._-]{1,64}$' }),
    name: Type.String({ minLength: 1, maxLength: 70 }),
    password: Type.String({ minLength: 1, maxLength: 128 }),
    otp: Type.String({ pattern: '^[0-9]{4,8}$' }),
    description: Type.String({ minLength: 1, maxLength: 500 }),
    scaMethods: Type.Array(ScaMethodSchema),
    accounts: Type.Array(AccountSchema, { minItems: 1 }),
    outcome: OutcomeSchema,
    faults: Type.Optional(Type.Array(PayerFaultSchema)),
  },
  { additionalProperties: false },
);

const FixturesSchema = Type.Object({ payers: Type.Array(PayerSchema, { minItems: 1 }) }, { additionalProperties: false });

export type ScaMethod = Static<typeof ScaMethodSchema>;
export type PayerAccount = Static<typeof AccountSchema>;
export type PayerOutcome = Static<typeof OutcomeSchema>;
export type PayerFault = Static<typeof PayerFaultSchema>;
export type TestPayer = Static<typeof PayerSchema>;
export type SandboxFixtures = Static<typeof FixturesSchema>;

const checkFixtures = Compile(FixturesSchema);

/** Validates a fixtures document (schema, IBAN checksums, amounts, uniqueness); throws listing every problem. */
export function parseSandboxFixtures(document: unknown): SandboxFixtures {
  if (!checkFixtures.Check(document)) {
    const problems = checkFixtures
      .Errors(document)
      .slice(0, 20)
      .map((error) => `${error.instancePath || '/'} ${error.message}`);
    throw new Error(`Invalid sandbox bank fixtures:\n  ${problems.join('\n  ')}`);
  }
  const problems: string[] = [];
  const psuIds = new Set<string>();
  const ibans = new Set<string>();
  const resourceIds = new Set<string>();
  for (const payer of document.payers) {
    if (psuIds.has(payer.psuId)) problems.push(`payer ${payer.psuId} appears twice`);
    psuIds.add(payer.psuId);
    const methodIds = new Set(payer.scaMethods.map((method) => method.authenticationMethodId));
    if (methodIds.size !== payer.scaMethods.length) problems.push(`payer ${payer.psuId} repeats an SCA method id`);
    if (payer.outcome.execution === 'settle' && payer.outcome.finalStatus === undefined) {
      problems.push(`payer ${payer.psuId}: outcome "settle" needs a finalStatus`);
    }
    for (const account of payer.accounts) {
      if (!isValidIBAN(account.iban)) problems.push(`payer ${payer.psuId}: ${account.iban} is not a valid IBAN`);
      if (ibans.has(account.iban)) problems.push(`IBAN ${account.iban} belongs to two accounts`);
      ibans.add(account.iban);
      if (resourceIds.has(account.resourceId)) problems.push(`account id ${account.resourceId} appears twice`);
      resourceIds.add(account.resourceId);
      if (toMinor(account.balance, account.currency) === undefined) {
        problems.push(`payer ${payer.psuId}: balance ${account.balance} has too many decimals for ${account.currency}`);
      }
    }
    for (const fault of payer.faults ?? []) {
      if (fault.operation !== undefined && fault.operations !== undefined) {
        problems.push(`payer ${payer.psuId}: a fault takes "operation" or "operations", not both`);
      }
    }
  }
  if (problems.length > 0) throw new Error(`Invalid sandbox bank fixtures:\n  ${problems.join('\n  ')}`);
  return document;
}

const BUILT_IN_FIXTURES = new URL('./fixtures/test-payers.json', import.meta.url);

/** Loads and validates a fixtures file; without a path, the built-in test payers. */
export function loadSandboxFixtures(file?: string | URL): SandboxFixtures {
  const document: unknown = JSON.parse(readFileSync(file ?? BUILT_IN_FIXTURES, 'utf8'));
  return parseSandboxFixtures(document);
}

/**
 * The fault a test payer's fixture sets for a call, if any. The fixture names Berlin Group operations; `covers`
 * says whether one of them stands for the call at hand (the identity at the Berlin Group banks, a mapping at the
 * UK ones). A fault without operations covers every call.
 */
export function payerFixtureFault(payer: TestPayer | undefined, covers: (operation: OperationName) => boolean): Fault | undefined {
  for (const rule of payer?.faults ?? []) {
    const operations = rule.operations ?? (rule.operation === undefined ? undefined : [rule.operation]);
    if (operations === undefined || operations.some(covers)) return rule.fault;
  }
  return undefined;
}
