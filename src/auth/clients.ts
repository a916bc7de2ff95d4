/**
 * API clients (the payment initiation providers that call us): creation, secret rotation, disabling.
 * Used by the operator CLI and the demo client at start-up.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type { ClientsTable, Database } from '../storage/schema.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { previousWebhookSecretContext, webhookSecretContext } from '../crypto/sealing-contexts.js';
import { announceClientRevocation, awaitRevocationPropagation } from '../storage/client-revocations.js';
import { displayTextProblem, normalisedDisplayText } from '../domain/display-text.js';
import type { Environment } from '../domain/reference-data.js';
import { formatScopes, parseScopes, SCOPES, type Scope } from './scopes.js';
import { generateClientSecret } from '../crypto/random-secrets.js';
import { sha256Hex } from '../crypto/hashes.js';
import { generateWebhookSecret } from '../webhooks/signature.js';

export interface ClientSummary {
  readonly clientId: string;
  readonly name: string;
  readonly environment: Environment;
  readonly scopes: readonly Scope[];
  readonly createdAt: string;
  readonly disabledAt: string | null;
}

/** What the operator is shown once, at creation or rotation; the secret is not retrievable afterwards. */
export interface IssuedClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly webhookSecret: string;
  readonly environment: Environment;
  readonly scopes: string;
}

/** Longest client name (the console's form says so too). */
export const MAX_CLIENT_NAME_LENGTH = 120;

/** Why a client name cannot be used (undefined when it can); pass it trimmed and in NFC (`normalisedDisplayText`). */
export function clientNameProblem(name: string): string | undefined {
  return displayTextProblem(name, MAX_CLIENT_NAME_LENGTH);
}

export class ClientNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientNameError';
  }
}

export class ClientNotFoundError extends Error {
  constructor(clientId: string) {
    super(`No client with id ${clientId}`);
    this.name = 'ClientNotFoundError';
  }
}

export class ClientService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Seals webhook secrets: they are stored sealed and shown in plain only once, when issued. */
    private readonly secrets: SecretBox,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(input: { name: string; environment?: Environment; scopes?: readonly Scope[] }): Promise<IssuedClientCredentials> {
    // The console and the CLI check the name first; this is the rule both share (names are shown to people).
    const name = normalisedDisplayText(input.name.trim());
    const problem = clientNameProblem(name);
    if (problem !== undefined) throw new ClientNameError(`name ${problem}`);
    const clientId = randomUUID();
    const clientSecret = generateClientSecret();
    const webhookSecret = generateWebhookSecret();
    const environment = input.environment ?? 'sandbox';
    const scopes = formatScopes(input.scopes ?? SCOPES);
    const at = this.now().toISOString();
    await this.db
      .insertInto('clients')
      .values({
        id: clientId,
        name,
        environment,
        scopes,
        secret_hash: sha256Hex(clientSecret),
        webhook_secret: this.secrets.seal(webhookSecret, webhookSecretContext(clientId)),
        created_at: at,
        updated_at: at,
        disabled_at: null,
        previous_webhook_secret: null,
        previous_webhook_secret_expires_at: null,
      })
      .execute();
    return { clientId, clientSecret, webhookSecret, environment, scopes };
  }

  async list(): Promise<ClientSummary[]> {
    const rows = await this.db
      .selectFrom('clients')
      .select(['id', 'name', 'environment', 'scopes', 'created_at', 'disabled_at'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      clientId: row.id,
      name: row.name,
      environment: row.environment,
      scopes: parseScopes(row.scopes).scopes,
      createdAt: row.created_at,
      disabledAt: row.disabled_at,
    }));
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('clients')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Issues a new secret; the old one and every token issued with it stop working in every process by the time it returns. */
  async rotateSecret(clientId: string): Promise<{ clientId: string; clientSecret: string }> {
    const clientSecret = generateClientSecret();
    await this.changeAndEndTokens(clientId, { secret_hash: sha256Hex(clientSecret) });
    return { clientId, clientSecret };
  }

  /**
   * Issues a new webhook signing secret. The previous one keeps signing beside it for `graceSeconds`, so
   * receivers can switch at their pace: during the grace period every delivery carries both signatures.
   */
  async rotateWebhookSecret(
    clientId: string,
    graceSeconds: number,
  ): Promise<{ clientId: string; webhookSecret: string; previousSecretExpiresAt: string }> {
    const webhookSecret = generateWebhookSecret();
    const now = this.now();
    const previousSecretExpiresAt = new Date(now.getTime() + graceSeconds * 1000).toISOString();
    await this.db.transaction().execute(async (trx) => {
      const client = await trx.selectFrom('clients').select('webhook_secret').where('id', '=', clientId).executeTakeFirst();
      if (client === undefined) throw new ClientNotFoundError(clientId);
      // The old secret moves to the previous-secret column: sealed again for that column (values are bound to theirs).
      const previous = this.secrets.open(client.webhook_secret, webhookSecretContext(clientId));
      await trx
        .updateTable('clients')
        .set({
          webhook_secret: this.secrets.seal(webhookSecret, webhookSecretContext(clientId)),
          previous_webhook_secret: this.secrets.seal(previous, previousWebhookSecretContext(clientId)),
          previous_webhook_secret_expires_at: previousSecretExpiresAt,
          updated_at: now.toISOString(),
        })
        .where('id', '=', clientId)
        .execute();
    });
    return { clientId, webhookSecret, previousSecretExpiresAt };
  }

  /** Sets the scopes a client may be granted; its tokens end in every process by the time it returns (they may carry a scope it lost). */
  async setScopes(clientId: string, scopes: readonly Scope[]): Promise<void> {
    await this.changeAndEndTokens(clientId, { scopes: formatScopes(scopes) });
  }

  /** Disables a client: its tokens stop working in every process by the time it returns, and it can get no new ones. */
  async disable(clientId: string): Promise<void> {
    await this.changeAndEndTokens(clientId, { disabled_at: this.now().toISOString() });
  }

  /**
   * Changes a client and ends every token issued to it, in one transaction; processes that cached the client's
   * verified tokens drop them when it commits, and this returns only once every process has seen it.
   */
  private async changeAndEndTokens(clientId: string, changes: Updateable<ClientsTable>): Promise<void> {
    const at = this.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('clients')
        .set({ ...changes, updated_at: at })
        .where('id', '=', clientId)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) throw new ClientNotFoundError(clientId);
      await trx.deleteFrom('access_tokens').where('client_id', '=', clientId).execute();
      await announceClientRevocation(trx, clientId, at);
    });
    await awaitRevocationPropagation(this.db);
  }
}
