/**
 * The sandbox bank: a mock ASPSP speaking Berlin Group NextGenPSD2 1.3.11 over HTTP, with payer pages, test payers
 * as data and fault injection. See docs/sandbox-bank.md.
 */
export {
  sandboxBankPlugin,
  buildSandboxBankApp,
  startSandboxBank,
  DEFAULT_MAX_RESOURCES,
  DEFAULT_SCA_DEADLINE_SECONDS,
  redactPageToken,
  type SandboxBankOptions,
  type StandaloneOptions,
} from './plugin.js';
export {
  FaultPlan,
  FaultRuleSchema,
  FaultSchema,
  OPERATIONS,
  MAX_HOLD_MS,
  MAX_DELAY_MS,
  type Fault,
  type FaultRule,
  type FaultContext,
  type OperationName,
} from './faults.js';
export {
  loadSandboxFixtures,
  parseSandboxFixtures,
  type SandboxFixtures,
  type TestPayer,
  type PayerAccount,
  type PayerOutcome,
  type PayerFault,
  type ScaMethod,
} from './fixtures.js';
export {
  verifyRequestSignature,
  type SignedRequest,
  type SignatureVerification,
  type SignatureProblem,
} from './signature.js';
export { sandboxBanks, productCurrency, type SandboxBankDefinition } from './banks.js';
export { MESSAGE_CODE_STATUS, type MessageCode, type TppMessage } from './errors.js';
export type { TransactionStatus, ScaStatus, ConsentStatus } from './state.js';
