/**
 * While we wait for the bank's answer (after a timeout, or while another request works on the payment): a waiting
 * page. Also the page of any open status no other step shows (the engine is between two steps).
 */
import { isWaiting } from '../../flow/engine.js';
import { payerStep } from '../step.js';
import { processingPage } from './page.js';

export const processingStep = payerStep<null>({
  name: 'processing',
  waitsIn: 'any-open',
  shows: ({ payment }) => isWaiting(payment),
  view: () => null,
  page: (context) => processingPage(context),
  actions: {},
});

/** The last resort of the registry: an open status no step waits in. */
export const betweenStepsStep = payerStep<null>({
  name: 'processing',
  waitsIn: 'any-open',
  view: () => null,
  page: (context) => processingPage(context),
  actions: {},
});
