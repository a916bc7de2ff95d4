/** The UK Open Banking Read/Write API 4.0 connector (domestic payments). */
export { UkOpenBankingSettingsSchema, type UkOpenBankingSettings } from './settings.js';
export { ukOpenBankingProfile } from './profile.js';
export {
  UkOpenBankingConnector,
  createUkOpenBankingConnector,
  withSandboxBankUrl,
  type UkBankConnector,
  type UkOpenBankingDependencies,
} from './uk-open-banking-connector.js';
export { creditorAccountOf } from './mapping.js';
export type { ConnectorLogger } from '../http/core.js';
export { loadSigningKeys, publicKeySet, signingKeysFromPem, throwAwaySigningKeys, type ConfiguredSigningKey } from './keys.js';
export { registerWithExternalSandbox, ukSandboxBankSettings, ukSandboxClients, type UkClientRegistration } from './sandbox-registration.js';
export {
  DynamicClientRegistration,
  RegistrationRefusedError,
  type BankRegistration,
  type BankRegistrationStore,
  type RegistrationIdentity,
  type RegistrationRequest,
} from './registration.js';
