/**
 * The connector contract suite against the sandbox bank over real HTTP, then every request the connector sent in
 * it checked against the Berlin Group OpenAPI definition.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeConnectorContract } from './connector-contract.js';
import { sandboxBankUnderTest, type SandboxBankUnderTest } from './sandbox-bank-fixture.js';
import { berlinGroupOpenApi } from '../helpers/openapi-validator.js';
import { relativeToBank } from '../helpers/recording-dispatcher.js';

let underTest: SandboxBankUnderTest | undefined;

describeConnectorContract('Berlin Group connector ↔ sandbox bank', async () => {
  underTest = await sandboxBankUnderTest();
  return underTest;
});

test('every request the connector sent in the contract suite follows the Berlin Group OpenAPI definition', () => {
  assert.ok(underTest !== undefined);
  const api = berlinGroupOpenApi({ debtorAccountOptional: true });
  const requests = underTest.requests;
  assert.ok(requests.length >= 40, `the suite sent ${requests.length} requests`);
  const problems = requests.flatMap(({ request, baseUrl }) => api.validate(relativeToBank(request, baseUrl)));
  assert.deepEqual(problems, []);
  const operations = new Set(
    requests.map(
      ({ request, baseUrl }) => `${request.method} ${relativeToBank(request, baseUrl).path.replace(/\/[0-9a-f-]{36}/g, '/{id}')}`,
    ),
  );
  for (const expected of [
    'POST /v1/payments/sepa-credit-transfers',
    'POST /v1/payments/sepa-credit-transfers/{id}/authorisations',
    'GET /v1/payments/sepa-credit-transfers/{id}/authorisations',
    'PUT /v1/payments/sepa-credit-transfers/{id}/authorisations/{id}',
    'GET /v1/payments/sepa-credit-transfers/{id}/authorisations/{id}',
    'GET /v1/payments/sepa-credit-transfers/{id}/status',
    'GET /v1/payments/sepa-credit-transfers/{id}',
    'DELETE /v1/payments/sepa-credit-transfers/{id}',
    'POST /v1/consents',
    'GET /v1/consents/{id}/status',
    'GET /v1/accounts',
  ]) {
    assert.ok(operations.has(expected), `${expected} was exercised (seen: ${[...operations].join(', ')})`);
  }
});
