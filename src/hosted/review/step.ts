/** The review before the bank is called (custom mode's first page, and the page to try again after a bank error). */
import { AUTOMATIC_STATUSES } from '../../flow/engine.js';
import { payerStep } from '../step.js';
import { reviewPage, type ReviewView } from './page.js';

export const reviewStep = payerStep<ReviewView>({
  name: 'review',
  waitsIn: AUTOMATIC_STATUSES,
  view: ({ engine, payment }) => ({ next: engine.approachAhead(payment) }),
  offersHandover: true,
  page: reviewPage,
  actions: {
    continue: ({ engine, payment, actor }) => engine.continueFlow(payment, actor),
  },
});
