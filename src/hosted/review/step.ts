/** The review before the bank is called (custom mode's first page, and the page to try again after a bank error). */
import { AUTOMATIC_STATUSES } from '../../flow/engine.js';
import { payerStep } from '../step.js';
import { reviewPage } from './page.js';

export const reviewStep = payerStep<null>({
  name: 'review',
  waitsIn: AUTOMATIC_STATUSES,
  view: () => null,
  offersHandover: true,
  page: (context) => reviewPage(context),
  actions: {
    continue: ({ engine, payment, actor }) => engine.continueFlow(payment, actor),
  },
});
