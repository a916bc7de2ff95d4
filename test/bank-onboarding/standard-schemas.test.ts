/**
 * The compact schema set `banks check` validates answers with is what the standards' OpenAPI files say: generated
 * again here from the files in the shared standards folder (read at test time only) and compared with the committed
 * copy, and its validator tells a conforming answer from one that is not.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateStandardSchemas } from '../../scripts/standard-schemas.js';
import { StandardAnswers } from '../../src/bank-onboarding/standard-answers.js';

const standards = fileURLToPath(new URL('../../../shared/standards', import.meta.url));

describe('the standards schema set of banks check', () => {
  it('is what the standards files give now (run npm run standards:schemas after they change)', () => {
    const committed = readFileSync(new URL('../../src/bank-onboarding/standard-schemas.json', import.meta.url), 'utf8');
    assert.equal(committed, `${JSON.stringify(generateStandardSchemas(standards))}\n`);
  });

  it('accepts a Berlin Group answer as the standard defines it and names what is wrong in one that is not', () => {
    const answers = new StandardAnswers('berlin-group');
    const good = {
      method: 'GET',
      path: '/v1/payments/sepa-credit-transfers/abc/status',
      status: 200,
      headers: { 'x-request-id': '99391c7e-ad88-49ec-a2ad-99ddcb1f7721' },
      body: JSON.stringify({ transactionStatus: 'ACSC' }),
    };
    assert.deepEqual(answers.validate(good), { operationId: 'getPaymentInitiationStatus', problems: [] });
    const bad = answers.validate({ ...good, body: JSON.stringify({ transactionStatus: 'DONE' }) });
    assert.equal(bad.operationId, 'getPaymentInitiationStatus');
    assert.match(bad.problems.join(' '), /transactionStatus/);
    assert.match(answers.validate({ ...good, status: 418 }).problems.join(' '), /HTTP 418 is not an answer the standard defines/);
  });

  it('requires the UK answer headers the standard requires', () => {
    const answers = new StandardAnswers('uk-open-banking');
    const result = answers.validate({ method: 'GET', path: '/domestic-payment-consents/c1', status: 200, headers: {}, body: '{}' });
    assert.equal(result.operationId, 'GetDomesticPaymentConsentsConsentId');
    assert.ok(result.problems.includes('the x-fapi-interaction-id header is missing'), result.problems.join('; '));
  });
});
