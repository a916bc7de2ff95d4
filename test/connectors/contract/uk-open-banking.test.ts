/**
 * The connector contract suite against the UK sandbox banks over real HTTP (Albion: redirect with fragment
 * answers; Pennine: CIBA), then every resource request the connector sent and every answer it got in it checked
 * against the UK Open Banking OpenAPI definition.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeConnectorContract } from './connector-contract.js';
import { ukOpenBankingUnderTest, type UkBankUnderTest } from './uk-open-banking-fixture.js';
import { assertAnswersConform, assertRequestsConform, operationOf } from '../uk-open-banking/fixture.js';
import { OPERATIONS } from '../../sandbox-bank/uk-open-banking/standard.js';

let underTest: UkBankUnderTest | undefined;

describeConnectorContract('UK Open Banking connector ↔ UK sandbox banks', async () => {
  underTest = await ukOpenBankingUnderTest();
  return underTest;
});

test('every resource request the connector sent in the contract suite, and every answer, follows the UK OpenAPI definition', () => {
  assert.ok(underTest !== undefined);
  assertRequestsConform(underTest.requests);
  assertAnswersConform(underTest.exchanges);
  const operations = new Set(underTest.requests.map(operationOf));
  for (const expected of [
    OPERATIONS.createConsent,
    OPERATIONS.getConsent,
    OPERATIONS.fundsConfirmation,
    OPERATIONS.createPayment,
    OPERATIONS.getPayment,
    OPERATIONS.paymentDetails,
  ]) {
    assert.ok(operations.has(expected), `${expected} was exercised (seen: ${[...operations].join(', ')})`);
  }
});
