/**
 * What the Sandbox page reads and changes: the sandbox banks of the catalogue and their fault rules (through the
 * sandbox bank's fault routes with the operator token, SANDBOX_OPERATOR_TOKEN; docs/sandbox-bank.md), the clients a
 * scenario payment may be made for, and the payment a scenario started.
 */
import type { ConsoleServices, SandboxFaultOperations } from '../services.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The standards of the sandbox banks; each sandbox names the operations its fault rules may target in its own words. */
export type SandboxStandard = keyof SandboxFaultOperations;

export type SandboxStandards = Readonly<Record<SandboxStandard, { readonly label: string; readonly operations: readonly string[] }>>;

/** Each standard's label and the operations its sandbox banks' fault rules may name (told by the composition root). */
export function sandboxStandards(services: ConsoleServices): SandboxStandards {
  return {
    'berlin-group': { label: 'Berlin Group banks', operations: services.sandboxFaultOperations['berlin-group'] },
    'uk-open-banking': { label: 'UK Open Banking banks', operations: services.sandboxFaultOperations['uk-open-banking'] },
  };
}

export interface SandboxBank {
  /** Where the bank's fault routes are, under SANDBOX_BANK_URL: `hansa`, `uk/albion`. */
  readonly path: string;
  readonly name: string;
  readonly standard: SandboxStandard;
}

export interface FaultRuleView {
  readonly id: string;
  readonly operations?: readonly string[];
  readonly psuId?: string;
  readonly fault: { readonly kind: string; readonly status?: number; readonly delayMs?: number; readonly holdMs?: number };
  readonly times?: number;
}

/**
 * The sandbox banks of the catalogue (Berlin Group and UK Open Banking), by the path their fault routes are under:
 * a Berlin Group bank's slug (its `baseUrl`'s first segment), a UK bank's `uk/<slug>` (its issuer). Both sandboxes
 * answer `/<path>/sandbox/faults` with the same routes and rule shape (docs/sandbox-bank.md).
 */
export function sandboxBanks(services: ConsoleServices): SandboxBank[] {
  const root = `${services.config.sandboxBank.url.replace(/\/+$/, '')}/`;
  return services.catalogue
    .banks('sandbox')
    .flatMap((bank): SandboxBank[] => {
      const { connector } = bank;
      if (connector.standard === 'berlin-group' && connector.baseUrl.startsWith(root)) {
        return [{ path: connector.baseUrl.slice(root.length).split('/')[0] ?? '', name: bank.name, standard: 'berlin-group' }];
      }
      if (connector.standard === 'uk-open-banking' && connector.issuer.startsWith(root)) {
        return [{ path: connector.issuer.slice(root.length).replace(/\/+$/, ''), name: bank.name, standard: 'uk-open-banking' }];
      }
      return [];
    })
    .filter((bank) => (bank.standard === 'berlin-group' ? /^[a-z0-9-]{1,64}$/ : /^uk\/[a-z0-9-]{1,64}$/).test(bank.path))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export class FaultControlError extends Error {}

export async function faultControl(
  services: ConsoleServices,
  path: string,
  method: 'GET' | 'POST' | 'DELETE',
  suffix = '',
  body?: unknown,
): Promise<unknown> {
  const token = services.config.sandboxOperatorToken;
  if (token === undefined) throw new FaultControlError('Fault injection is closed: the service runs without SANDBOX_OPERATOR_TOKEN.');
  const bankPath = path.split('/').map(encodeURIComponent).join('/');
  const response = await fetch(`${services.config.sandboxBank.url.replace(/\/+$/, '')}/${bankPath}/sandbox/faults${suffix}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  if (!response.ok)
    throw new FaultControlError(`The sandbox bank answered ${response.status}${text === '' ? '' : `: ${text.slice(0, 300)}`}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

/** The clients a scenario payment may be made for: active sandbox clients (a production client is never offered nor accepted). */
export async function sandboxClients(services: ConsoleServices): Promise<{ readonly id: string; readonly name: string }[]> {
  return services.db
    .selectFrom('clients')
    .select(['id', 'name'])
    .where('environment', '=', 'sandbox')
    .where('disabled_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The payment the address names after a start, read from the database (the page never echoes text from the address). */
export async function startedPayment(
  services: ConsoleServices,
  paymentId: string | undefined,
): Promise<{ readonly id: string; readonly endToEndId: string } | undefined> {
  if (paymentId === undefined || !UUID.test(paymentId)) return undefined;
  const payment = await services.db
    .selectFrom('payments')
    .select(['id', 'end_to_end_id'])
    .where('id', '=', paymentId.toLowerCase())
    .executeTakeFirst();
  return payment === undefined ? undefined : { id: payment.id, endToEndId: payment.end_to_end_id };
}

/** The fault rules in force at each sandbox bank; a bank that cannot be asked is a problem said on the page (the rest are not asked then). */
export async function faultRulesOf(
  services: ConsoleServices,
  banks: readonly SandboxBank[],
): Promise<{ rules: Map<string, FaultRuleView[]>; problems: string[] }> {
  const rules = new Map<string, FaultRuleView[]>();
  const problems: string[] = [];
  for (const bank of banks) {
    try {
      const answer = (await faultControl(services, bank.path, 'GET')) as { faults?: FaultRuleView[] } | undefined;
      rules.set(bank.path, answer?.faults ?? []);
    } catch (error) {
      problems.push(`${bank.name}: ${error instanceof Error ? error.message : String(error)}`);
      break;
    }
  }
  return { rules, problems };
}
