/** Phase 6 (embedded): the payer chooses one of the bank's SCA methods. */
import { chooseScaMethod } from '../../flow/steps/payment-consent.js';
import { payerStep, statusesOf } from '../step.js';
import type { ScaMethod } from '../../connectors/index.js';
import { KNOWN_SCA_TYPES, scaMethodPage, type ScaMethodChoice, type ScaMethodView } from './page.js';

/** A bank's method as the page shows it: its type if we know it, its own words apart. */
export function scaMethodChoice(method: ScaMethod): ScaMethodChoice {
  const type = KNOWN_SCA_TYPES.find((known) => known === method.type);
  const words = [method.name, method.explanation].filter((text): text is string => text !== undefined && text.trim() !== '');
  return { id: method.id, type, bankText: words.length === 0 ? undefined : words.join(' – ') };
}

const step = { name: 'sca-method', waitsIn: ['PAYMENT_CONSENT_AUTHENTICATION_METHOD_SELECTION_REDIRECT_PENDING'] as const };

export const scaMethodStep = payerStep<ScaMethodView>({
  ...step,
  view: ({ state }) => ({ methods: (state.scaMethods ?? []).map(scaMethodChoice) }),
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
