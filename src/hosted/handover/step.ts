/**
 * The desktop's page once a phone took the flow over (docs/hosted-pages.md, "Desktop to phone"): not in the
 * registry of steps, it is shown instead of the payment's step to every browser but the phone's until the payer's
 * part is over, and it takes no action.
 */
import { payerStep } from '../step.js';
import { takenOverPage } from './page.js';

export const takenOverStep = payerStep<null>({
  name: 'taken-over',
  waitsIn: 'any-open',
  view: () => null,
  page: (context) => takenOverPage(context),
  actions: {},
});
