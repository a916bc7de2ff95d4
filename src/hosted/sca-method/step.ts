/** Phase 6 (embedded): the payer chooses one of the bank's SCA methods. */
import { chooseMethod } from '../../flow/commands/index.js';
import { statusesShownOn } from '../../flow/step-table.js';
import { payerStep } from '../step.js';
import type { ScaMethod } from '../../connectors/index.js';
import { KNOWN_SCA_TYPES, scaMethodPage, type ScaMethodChoice, type ScaMethodView } from './page.js';

/** A bank's method as the page shows it: its type if we know it, its own words apart. */
export function scaMethodChoice(method: ScaMethod): ScaMethodChoice {
  const type = KNOWN_SCA_TYPES.find((known) => known === method.type);
  const words = [method.name, method.explanation].filter((text): text is string => text !== undefined && text.trim() !== '');
  return { id: method.id, type, bankText: words.length === 0 ? undefined : words.join(' – ') };
}

export const scaMethodStep = payerStep<ScaMethodView>({
  name: 'sca-method',
  waitsIn: statusesShownOn('sca-method'),
  view: ({ state }) => ({ methods: (state.authorisation?.scaMethods ?? []).map(scaMethodChoice) }),
  page: scaMethodPage,
  actions: {
    method: ({ engine, payment, form, actor }) => chooseMethod(engine, payment, { methodId: form('methodId') }, actor),
  },
});
