/**
 * The payer's steps, registered in one place. The routes show the first step whose page is the payer's page now
 * (so a step that shares a status with another comes before the more general one), and send a posted action to the
 * current step's handler of that name. Actions every page offers (cancel, going back) are here too.
 */
import { cancel, goBack } from '../flow/commands/index.js';
import { accountSelectionStep } from './account-selection/step.js';
import { atBankStep } from './at-bank/step.js';
import { bankSelectionStep } from './bank-selection/step.js';
import { decoupledStep } from './decoupled/step.js';
import { followupDataStep } from './followup-data/step.js';
import { oneTimeCodeStep } from './one-time-code/step.js';
import { outcomeStep } from './outcome/step.js';
import { betweenStepsStep, processingStep } from './processing/step.js';
import { reviewStep } from './review/step.js';
import { scaMethodStep } from './sca-method/step.js';
import { senderLoginStep } from './sender-login/step.js';
import { stepShows, type ActionHandler, type PayerStep, type StepInput } from './step.js';

export const PAYER_STEPS: readonly PayerStep<unknown>[] = [
  // The outcome first: once the payer's part is over nothing else is shown.
  outcomeStep,
  // Then waiting: while a bank answer is open or another request holds the payment, whatever the status.
  decoupledStep,
  processingStep,
  bankSelectionStep,
  followupDataStep,
  senderLoginStep,
  accountSelectionStep,
  scaMethodStep,
  atBankStep,
  oneTimeCodeStep,
  reviewStep,
  betweenStepsStep,
];

/** The action every page links to (a GET of it asks for confirmation; the confirmation's form posts it). */
export const CANCEL_ACTION = 'cancel';

/** Actions of every page, whatever the step. */
export const COMMON_ACTIONS: Readonly<Record<string, ActionHandler>> = {
  // Posted by the confirmation page only (GET /pay/:flowToken/cancel): the flow link then shows the cancelled page,
  // with the way back to the shop.
  [CANCEL_ACTION]: ({ engine, payment, actor }) => cancel(engine, payment, actor),
  back: ({ engine, payment, actor }) => goBack(engine, payment, actor),
};

/** The step whose page the payer sees now (an open payment always has one: the registry ends with a catch-all). */
export function currentStep(input: StepInput): PayerStep<unknown> {
  return PAYER_STEPS.find((step) => stepShows(step, input)) ?? betweenStepsStep;
}

/**
 * The handler of a posted action: the current step's, else one of another step (a stale form: the engine finds
 * the payment elsewhere and the payer sees the current page), else a common action. Undefined: no such action.
 */
export function actionHandler(input: StepInput, action: string): ActionHandler | undefined {
  const step = currentStep(input);
  if (Object.hasOwn(step.actions, action)) return step.actions[action];
  if (Object.hasOwn(COMMON_ACTIONS, action)) return COMMON_ACTIONS[action];
  return PAYER_STEPS.find((step) => Object.hasOwn(step.actions, action))?.actions[action];
}
