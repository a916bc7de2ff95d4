/**
 * UK Open Banking Read/Write API 4.0 sandbox banks (domestic payments): see docs/sandbox-bank-uk.md.
 */
export { ukSandboxBankPlugin, type UkSandboxBankOptions, type UkClientRegistration } from './plugin.js';
export { UK_SANDBOX_BANKS, ukSandboxBanks, type UkSandboxBank, type UkAuthorisationFlow } from './banks.js';
export { UK_OPERATIONS, UkFaultRuleSchema, type UkFaultRule, type UkOperationName } from './faults.js';
export { OB_ERROR_CODES, type ObErrorName, type ObErrorBody } from './errors.js';
export { OB_IAT, OB_ISS, OB_TAN } from './jws.js';
export { SANDBOX_TRUST_ANCHOR } from './context.js';
export { halfHash } from './id-token.js';
export { SANDBOX_SORT_CODE } from './state.js';

/** Where the UK banks live under a sandbox mount: `{sandbox public URL}/uk/{slug}`. */
export const UK_SANDBOX_SEGMENT = '/uk';
