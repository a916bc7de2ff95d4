/** Every validation message reads `<field path> <rule>` in plain English (decisions §2). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAjv } from '../../src/http/ajv.js';
import { messagesFor } from '../../src/http/ajv-messages.js';
import { validatePaymentCreation } from '../../src/payments/validation.js';
import { loadCatalogue } from '../../src/providers/catalogue.js';
import { paymentRequest } from '../helpers/payment-requests.js';

/** A dotted field path, then a rule that starts with must / should / has. */
const SENTENCE = /^[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)* (?:must|should|has) [a-z0-9]/;

function assertSentence(message: string): void {
  assert.match(message, SENTENCE, message);
  assert.doesNotMatch(message, /\b1 (?:elements|characters|items)\b/, message);
  assert.doesNotMatch(message, /\bNOT\b|\ba (?:[aeiou]|null)/, message);
}

describe('validation messages', () => {
  it('word every JSON-schema keyword as <field path> <rule>, singular and plural right', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['needed'],
      properties: {
        needed: { type: 'string' },
        list: { type: 'array', minItems: 1, maxItems: 1, uniqueItems: true },
        many: { type: 'array', minItems: 2 },
        text: { type: 'string', minLength: 2, maxLength: 1 },
        single: { type: 'string', maxLength: 1, pattern: '^a$' },
        count: { type: 'integer', minimum: 1, maximum: 0, exclusiveMinimum: 5, multipleOf: 7 },
        nothing: { type: 'null' },
        options: { enum: ['A', 'B'] },
        fixed: { const: 'X' },
        nested: { type: 'object', minProperties: 1, properties: { id: { type: 'string', format: 'uuid' } } },
      },
    };
    const validate = createAjv().compile(schema);
    const samples = [
      { list: [], many: [1], text: 'abc', single: 'bb', count: 3.5, nothing: 1, options: 'C', fixed: 'Y', nested: {}, extra: 1 },
      { needed: 1, list: [1, 1, 2], text: '', nested: { id: 'x' }, count: 'x' },
    ];
    const messages: string[] = [];
    for (const sample of samples) {
      assert.equal(validate(sample), false);
      messages.push(...messagesFor(validate.errors ?? []));
    }
    assert.ok(messages.length > 15, JSON.stringify(messages));
    for (const message of messages) assertSentence(message);
    assert.ok(messages.includes('list must contain at least 1 element'), JSON.stringify(messages));
    assert.ok(messages.includes('many must contain at least 2 elements'), JSON.stringify(messages));
    assert.ok(messages.includes('single must be shorter than or equal to 1 character'), JSON.stringify(messages));
    assert.ok(messages.includes('nothing must be null'), JSON.stringify(messages));
  });

  it('word the payment rules beyond the schema the same way', () => {
    const catalogue = loadCatalogue(undefined, 'http://127.0.0.1:1/sandbox-bank');
    const thames = catalogue.banks('sandbox').find((bank) => !bank.paymentSchemes.includes('SEPA'));
    assert.ok(thames);
    const bodies = [
      paymentRequest({ provider: { preferences: { countryCodes: { list: ['GB'] } } } }),
      paymentRequest({ provider: { id: thames.id } }),
      paymentRequest({ amount: 1.234, currency: 'USD', paymentScheme: { name: 'SEPA' } }),
      paymentRequest({ recipient: {}, remittanceInformation: { value: '' } }),
    ];
    for (const body of bodies) {
      const result = validatePaymentCreation(body, { environment: 'sandbox', catalogue, allowPrivateWebhookTargets: false });
      assert.equal(result.kind, 'invalid');
      if (result.kind === 'invalid') for (const message of result.violations) assertSentence(message);
    }
  });
});
