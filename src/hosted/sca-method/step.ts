/** Phase 6 (embedded): the payer chooses one of the bank's SCA methods. */
import { chooseScaMethod } from '../../flow/steps/payment-consent.js';
import { payerStep, statusesOf } from '../step.js';
import { scaMethodPage, type ScaMethodView } from './page.js';

const step = { name: 'sca-method', waitsIn: ['PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING'] as const };

export const scaMethodStep = payerStep<ScaMethodView>({
  ...step,
  view: ({ state }) => ({ methods: state.scaMethods ?? [] }),
  page: scaMethodPage,
  actions: {
    method: ({ engine, payment, form, actor }) =>
      engine.perform(payment, statusesOf(step, payment), actor, async (run) => {
        const method = (run.state.scaMethods ?? []).find((candidate) => candidate.id === form('methodId'));
        if (method === undefined) return { kind: 'invalid', errors: [{ field: 'methodId', message: 'chooseOne' }] };
        return chooseScaMethod(run, method);
      }),
  },
});
