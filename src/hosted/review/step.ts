/** The review before the bank is called (custom mode's first page, and the page to try again after a bank error). */
import { continueFlow } from '../../flow/commands/index.js';
import { statusesShownOn } from '../../flow/step-table.js';
import { payerStep } from '../step.js';
import { reviewPage, type ReviewView } from './page.js';

export const reviewStep = payerStep<ReviewView>({
  name: 'review',
  waitsIn: statusesShownOn('review'),
  view: ({ engine, payment }) => ({ next: engine.approachAhead(payment) }),
  offersHandover: true,
  page: reviewPage,
  actions: {
    continue: ({ engine, payment, actor }) => continueFlow(engine, payment, actor),
  },
});
