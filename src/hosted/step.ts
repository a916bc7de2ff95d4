/**
 * What a payer step is: one module per step (`src/hosted/<step>/step.ts`) declares the statuses its page is shown
 * in, how its typed view is built from the payment, the page that renders that view, and the actions its forms post
 * with their handlers. `payer-steps.ts` registers them in one list; the routes find the step of a payment there and
 * know no step by name. docs/hosted-pages.md explains how to add one.
 */
import type { DetailedStatus } from '../domain/detailed-status.js';
import type { Payment } from '../domain/payment.js';
import type { ActionOutcome, Actor, FlowEngine, InputError, Notice } from '../flow/engine.js';
import type { FlowState } from '../flow/flow-state.js';
import type { PageContext } from './layout/page-context.js';

/**
 * "Pay with another bank" after a failure another bank could avoid: a new payment linked to the failed one, made by
 * the payments service (src/payments/payment-service.ts) and handed to the pages by the composition (src/app.ts).
 * `existing`: the failed payment had its retry already (at most one: a double click gets the first).
 */
export interface PaymentRetries {
  retryWithAnotherBank(
    failed: Payment,
  ): Promise<{ readonly kind: 'created' | 'existing'; readonly payment: Payment } | { readonly kind: 'refused' }>;
}

/** What a step's view and its actions are built from (never handed to a page). */
export interface StepInput {
  readonly payment: Payment;
  readonly state: FlowState;
  readonly engine: FlowEngine;
  /** Retries with another bank; undefined where the pages are served without them (they are then never offered). */
  readonly retries: PaymentRetries | undefined;
  /** A query parameter of the page's GET (a filter of the bank list), bounded in length. */
  readonly query: (name: string) => string | undefined;
  /** A cookie of ours the browser sent (the bank remembered for this client), bounded in length. */
  readonly cookie: (name: string) => string | undefined;
  /** The browser's `Accept-Language` (its languages and regions: the country preselected in the bank list). */
  readonly acceptLanguage: string | undefined;
  /** The banks failing now by the records of our calls to them (the console's "Failing now"); empty when unknown. */
  readonly failingBanks: () => Promise<ReadonlySet<string>>;
}

/** A first-party cookie an action asks the payer's browser to keep (HttpOnly, SameSite=Lax, Secure over HTTPS). */
export interface PayerCookie {
  readonly name: string;
  readonly value: string;
  /** Our path it is sent to (never wider than `/pay`). */
  readonly path: string;
  readonly maxAgeSeconds: number;
}

/** The posted form's string fields. */
export type FormFields = (name: string) => string | undefined;

export type ActionHandler = (
  input: StepInput & { readonly form: FormFields; readonly actor: Actor; readonly remember: (cookie: PayerCookie) => void },
) => Promise<ActionOutcome>;

export interface PayerStep<View> {
  /** The step's folder name; also used in logs and tests. */
  readonly name: string;
  /**
   * The statuses the step's page is shown in (`'any-open'`: any status that is not final): the step table's
   * (`statusesShownOn` of src/flow/step-table.ts) for a step of the flow.
   */
  readonly waitsIn: readonly DetailedStatus[] | 'any-open';
  /** When several steps share a status: whether this one is the payer's page now (checked in registration order). */
  readonly shows?: (input: StepInput) => boolean;
  /** The page's typed view: what the page shows, computed here so pages never read the stored flow state. */
  readonly view: (input: StepInput) => View | Promise<View>;
  /** Input errors the bank's earlier refusal adds to every view (a wrong login or code with the attempts left). */
  readonly standingErrors?: (input: StepInput) => readonly InputError[];
  /** A notice every view shows until the payer acts (a code the bank did not take). */
  readonly standingNotice?: (input: StepInput) => Notice | undefined;
  readonly page: (context: PageContext, view: View) => string;
  /** Whether a desktop's page offers a QR code to finish on a phone (docs/hosted-pages.md, "Desktop to phone"). */
  readonly offersHandover?: boolean;
  /**
   * The actions its forms post (`POST /pay/:flowToken/<action>`) and their handlers: each reads the form and calls a
   * flow command (src/flow/commands/), which validates it and runs it on the engine.
   */
  readonly actions: Readonly<Record<string, ActionHandler>>;
}

/** Declares a step with its view type checked against its page (the registry holds steps of many view types). */
export function payerStep<View>(step: PayerStep<View>): PayerStep<unknown> {
  return step as PayerStep<unknown>;
}

/** Whether the step's page is the payer's page for this payment now. */
export function stepShows(step: PayerStep<unknown>, input: StepInput): boolean {
  const waits = step.waitsIn === 'any-open' ? true : step.waitsIn.includes(input.payment.detailedStatus);
  return waits && (step.shows === undefined || step.shows(input));
}
