/**
 * The committed OpenAPI document (the one the routes generate, test/openapi.test.ts) passes the linters integrators
 * run: Redocly with `recommended-strict` and Spectral with `spectral:oas`, with no error and no warning.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { redoclyFindings, spectralFindings } from '../helpers/openapi-lint.js';

const committed = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');

describe('OpenAPI lint', () => {
  it('Redocly recommended-strict: no findings', async () => {
    assert.deepEqual(await redoclyFindings(committed), []);
  });

  it('Spectral spectral:oas: no findings', async () => {
    assert.deepEqual(await spectralFindings(committed), []);
  });

  it('the linters do find faults (an operation without operationId, an example that breaks its schema)', async () => {
    const broken = JSON.parse(committed) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const listPayments = broken.paths['/api/v1/ob/payments']?.get;
    assert.ok(listPayments);
    delete listPayments.operationId;
    const created = broken.paths['/api/v1/ob/payments']?.post as {
      responses: Record<string, { content: Record<string, { example: Record<string, unknown> }> }>;
    };
    const example = created.responses['201']?.content['application/json']?.example;
    assert.ok(example);
    example.paymentId = 42;
    const text = JSON.stringify(broken);
    const redocly = await redoclyFindings(text);
    assert.ok(
      redocly.some((finding) => finding.startsWith('operation-operationId')),
      redocly.join('\n'),
    );
    assert.ok(
      redocly.some((finding) => finding.startsWith('no-invalid-media-type-examples')),
      redocly.join('\n'),
    );
    const spectral = await spectralFindings(text);
    assert.ok(
      spectral.some((finding) => finding.startsWith('operation-operationId')),
      spectral.join('\n'),
    );
  });
});
