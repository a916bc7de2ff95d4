/**
 * The sandbox bank: mock ASPSPs for development and tests, one folder per standard it speaks, with the test payers,
 * balances, fault injection and payer-page frame they share. See docs/sandbox-bank.md (Berlin Group NextGenPSD2
 * 1.3.11) and docs/sandbox-bank-uk.md (UK Open Banking Read/Write API 4.0).
 *
 * - `plugin.ts`: the plugin that mounts both standards, and the stand-alone app;
 * - `berlin-group/`, `uk-open-banking/`: each standard's plugin, routes, pages and state;
 * - `shared/`: test payers, the balances ledger, fault plan, operator token, page frame, request plumbing, and the
 *   shape of the catalogue it is given.
 *
 * This file is the package's whole interface (`@openpis/sandbox-bank`, package.json `exports`): the service imports
 * nothing else of it, and the package imports nothing of the service (.dependency-cruiser.cjs). What it needs of the
 * service comes in as options: the provider catalogue (in the shape shared/catalogue.ts names) and the connectors'
 * default attempt limit (`authenticationAttempts`).
 */
export {
  sandboxBankPlugin,
  buildSandboxBankApp,
  startSandboxBank,
  redactPageToken,
  type SandboxBankOptions,
  type StandaloneOptions,
} from './plugin.js';
export { berlinGroupSandboxPlugin, DEFAULT_MAX_RESOURCES, DEFAULT_SCA_DEADLINE_SECONDS } from './berlin-group/plugin.js';
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
} from './shared/faults.js';
export type { SandboxCatalogue, CatalogueBank, CatalogueBerlinGroupConnector, ScaApproach } from './shared/catalogue.js';
export {
  loadSandboxFixtures,
  parseSandboxFixtures,
  type SandboxFixtures,
  type TestPayer,
  type PayerAccount,
  type PayerOutcome,
  type PayerFault,
  type ScaMethod,
} from './shared/fixtures.js';
export { verifyRequestSignature, type SignedRequest, type SignatureVerification, type SignatureProblem } from './berlin-group/signature.js';
export { sandboxBanks, productCurrency, type SandboxBankDefinition } from './berlin-group/banks.js';
export { MESSAGE_CODE_STATUS, type MessageCode, type TppMessage } from './berlin-group/errors.js';
export type { TransactionStatus, ScaStatus, ConsentStatus } from './berlin-group/state.js';
export type { StrictOptions } from './shared/strict.js';
export { ukSandboxBankPlugin, UK_OPERATIONS, type UkFaultRule, type UkOperationName } from './uk-open-banking/index.js';
