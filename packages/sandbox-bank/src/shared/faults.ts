/**
 * Fault injection: slow answers, 5xx answers and answers that never come, on chosen calls of chosen banks or test
 * payers, for the next N calls or always. Rules come from three places: a `FaultPlan` handed to the plugin (tests
 * hold it), the HTTP control endpoint `/<slug>/sandbox/faults` (client developers), and test-payer fixtures.
 */
import { randomUUID } from 'node:crypto';
import { Type, type Static, type TSchema } from 'typebox';

/**
 * Names of the Berlin Group banks' API operations that faults can target. They live here, not in berlin-group/,
 * because the shared test payers' fixture faults are written in them (the UK banks map them onto their own).
 */
export const OPERATIONS = [
  'initiatePayment',
  'getPayment',
  'getPaymentStatus',
  'cancelPayment',
  'startAuthorisation',
  'getAuthorisations',
  'getScaStatus',
  'updateAuthorisation',
  'createConsent',
  'getConsent',
  'getConsentStatus',
  'deleteConsent',
  'getAccounts',
  /** Not a call to the bank but the bank's own: its status notification to the TPP (berlin-group/notifier.ts). */
  'sendNotification',
] as const;
export type OperationName = (typeof OPERATIONS)[number];

/** A timeout holds the request at most this long, so a forgotten rule never pins a socket for ever. */
export const MAX_HOLD_MS = 60_000;
/** Delays are bounded for the same reason. */
export const MAX_DELAY_MS = 60_000;

/**
 * `afterActing`: the bank does the call's work first (the payment registered, the login taken, the code checked) and
 * only then the fault takes the answer: the delay comes before the answer, the 5xx replaces it, or no answer comes.
 * This is what a live bank does when our request timed out on the way back: the bank acted, we do not know it.
 * Without it the fault comes first and the bank does nothing.
 */
const afterActing = Type.Optional(Type.Boolean());

export const FaultSchema = Type.Union([
  Type.Object(
    { kind: Type.Literal('delay'), delayMs: Type.Integer({ minimum: 1, maximum: MAX_DELAY_MS }), afterActing },
    { additionalProperties: false },
  ),
  Type.Object(
    // Only the 5xx statuses the standard defines for every operation.
    { kind: Type.Literal('error'), status: Type.Union([Type.Literal(500), Type.Literal(503)]), afterActing },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('timeout'),
      /** How long the request is held before the connection is dropped without an answer (default and cap 60 s). */
      holdMs: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_HOLD_MS })),
      afterActing,
    },
    { additionalProperties: false },
  ),
]);
export type Fault = Static<typeof FaultSchema>;

export const OperationSchema = Type.Unsafe<OperationName>({ type: 'string', enum: [...OPERATIONS] });

/**
 * A fault rule as written by tests, the HTTP control endpoint or fixtures, over one standard's operation names
 * (each standard builds its rule schema from this, so the rules have one shape everywhere).
 */
export function faultRuleSchema<Operation extends TSchema>(operation: Operation) {
  return Type.Object(
    {
      /** Bank slug; unset: every bank. */
      bank: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      /** Test payer (PSU-ID); unset: every payer (and calls with no known payer). */
      psuId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      /** Operations hit; unset: every operation. */
      operations: Type.Optional(Type.Array(operation, { minItems: 1 })),
      fault: FaultSchema,
      /** Apply to the next N matching calls only; unset: always. */
      times: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    },
    { additionalProperties: false },
  );
}

/**
 * The Berlin Group sandbox's rules (its operation names are also the test payers' fault vocabulary). The payment
 * calls are the same operations for single and bulk payments, as in the standard; `paymentService` narrows a rule to
 * the calls on one service (`bulk-payments` for bulk payments only; a rule naming one never hits a consent's calls).
 */
export const FaultRuleSchema = Type.Object(
  {
    ...faultRuleSchema(OperationSchema).properties,
    paymentService: Type.Optional(Type.Union([Type.Literal('payments'), Type.Literal('bulk-payments')])),
  },
  { additionalProperties: false },
);
export type FaultRule = Static<typeof FaultRuleSchema>;

/**
 * The shape every fault rule shares, whatever standard names the operations: the UK Open Banking sandbox
 * (uk-open-banking/) keeps its own operation names in a plan of its own.
 */
export interface AnyFaultRule {
  readonly bank?: string;
  readonly psuId?: string;
  readonly operations?: readonly string[];
  /** The payment service whose calls the rule hits (Berlin Group); unset: every call. */
  readonly paymentService?: string;
  readonly fault: Fault;
  readonly times?: number;
}

/** What a request looks like to the fault matcher. */
export interface FaultContext<Operation extends string = OperationName> {
  readonly bank: string;
  readonly operation: Operation;
  readonly psuId: string | undefined;
  /** The payment service the call is about (Berlin Group `payments` or `bulk-payments`), when it is about a payment. */
  readonly paymentService?: string;
}

interface ActiveRule<Rule extends AnyFaultRule> {
  readonly id: string;
  readonly rule: Rule;
  remaining: number | undefined;
}

/** Fault rules of one sandbox; `Rule` defaults to the Berlin Group sandbox's rules and operation names. */
export class FaultPlan<Rule extends AnyFaultRule = FaultRule> {
  private readonly rules: Array<ActiveRule<Rule>> = [];

  /** Adds a rule; returns its id (for `remove`). Later rules win over earlier ones. */
  inject(rule: Rule): string {
    const id = randomUUID();
    this.rules.push({ id, rule, remaining: rule.times });
    return id;
  }

  remove(id: string): boolean {
    const index = this.rules.findIndex((active) => active.id === id);
    if (index < 0) return false;
    this.rules.splice(index, 1);
    return true;
  }

  /** Removes every rule, or only those scoped to one bank. */
  clear(bank?: string): void {
    for (let index = this.rules.length - 1; index >= 0; index -= 1) {
      if (bank === undefined || this.rules[index]?.rule.bank === bank) this.rules.splice(index, 1);
    }
  }

  list(bank?: string): Array<Rule & { id: string; remaining: number | undefined }> {
    return this.rules
      .filter((active) => bank === undefined || active.rule.bank === undefined || active.rule.bank === bank)
      .map((active) => ({ ...active.rule, id: active.id, remaining: active.remaining }));
  }

  /** Finds the fault for a call and uses up one of its `times`. */
  take(context: FaultContext<NonNullable<Rule['operations']>[number]>): Fault | undefined {
    for (let index = this.rules.length - 1; index >= 0; index -= 1) {
      const active = this.rules[index];
      if (active === undefined || !matches(active.rule, context)) continue;
      if (active.remaining !== undefined) {
        active.remaining -= 1;
        if (active.remaining <= 0) this.rules.splice(index, 1);
      }
      return active.rule.fault;
    }
    return undefined;
  }
}

function matches(rule: AnyFaultRule, context: FaultContext<string>): boolean {
  if (rule.bank !== undefined && rule.bank !== context.bank) return false;
  if (rule.psuId !== undefined && rule.psuId !== context.psuId) return false;
  if (rule.operations !== undefined && !rule.operations.includes(context.operation)) return false;
  if (rule.paymentService !== undefined && rule.paymentService !== context.paymentService) return false;
  return true;
}
