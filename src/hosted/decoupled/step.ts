/** Phase 6 (decoupled): the payer approves in the bank's app; the page refreshes itself and we ask the bank. */
import { isWaiting } from '../../flow/engine.js';
import { statusesShownOn } from '../../flow/step-table.js';
import { payerStep } from '../step.js';
import { decoupledPage, type DecoupledView } from './page.js';

export const decoupledStep = payerStep<DecoupledView>({
  name: 'decoupled',
  waitsIn: statusesShownOn('decoupled'),
  shows: ({ payment, state }) =>
    isWaiting(payment) && state.authorisation?.scaApproach === 'DECOUPLED' && state.reconciliation?.reconciling !== true,
  view: ({ payment, state }) => ({
    sandboxAppUrl: state.authorisation?.decoupledAppUrl,
    deadline: payment.flowExpiresAt,
    minutesLeft: Math.max(0, Math.ceil((Date.parse(payment.flowExpiresAt) - Date.now()) / 60_000)),
  }),
  page: decoupledPage,
  actions: {},
});
