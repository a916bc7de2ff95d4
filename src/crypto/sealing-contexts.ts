/**
 * The context each stored secret is sealed for (src/crypto/secret-box.ts binds a sealed value to it): the table, the
 * column and the row, so a sealed value copied to another row or column does not open there.
 */
export const webhookSecretContext = (clientId: string): string => `clients.webhook_secret:${clientId}`;
export const previousWebhookSecretContext = (clientId: string): string => `clients.previous_webhook_secret:${clientId}`;
export const flowTokenContext = (paymentId: string): string => `payments.flow_token_sealed:${paymentId}`;
export const totpSecretContext = (userId: string): string => `console_users.totp_secret_sealed:${userId}`;
/** A bank's secrets (our client id and secret at the bank, its registration access token), as one JSON document. */
export const bankSecretsContext = (bankId: string): string => `banks.secrets_sealed:${bankId}`;
