/** The operator's identity on the payer's pages (OPERATOR_*): optional, validated like every setting. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/config.js';

describe('operator identity settings', () => {
  it('are unset by default', () => {
    assert.deepEqual(loadConfig({}).operator, {
      name: undefined,
      regulatoryStatement: undefined,
      termsUrl: undefined,
      privacyUrl: undefined,
    });
  });

  it('are read when valid', () => {
    const config = loadConfig({
      OPERATOR_NAME: 'Example Pay',
      OPERATOR_REGULATORY_STATEMENT: 'Example Pay Ltd is authorised by the Example Authority (no. 123456).',
      OPERATOR_TERMS_URL: 'https://pay.example/terms',
      OPERATOR_PRIVACY_URL: 'http://localhost:8080/privacy',
    });
    assert.deepEqual(config.operator, {
      name: 'Example Pay',
      regulatoryStatement: 'Example Pay Ltd is authorised by the Example Authority (no. 123456).',
      termsUrl: 'https://pay.example/terms',
      privacyUrl: 'http://localhost:8080/privacy',
    });
  });

  it('refuse a plain-http link off this machine, a relative link, a name too long and control characters, all at once', () => {
    assert.throws(
      () =>
        loadConfig({
          OPERATOR_NAME: 'x'.repeat(81),
          OPERATOR_REGULATORY_STATEMENT: 'line one\u0007',
          OPERATOR_TERMS_URL: 'http://pay.example/terms',
          OPERATOR_PRIVACY_URL: '/privacy',
        }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.length === 4 &&
        error.problems.some((problem) => /^OPERATOR_NAME must be at most 80 characters/.test(problem)) &&
        error.problems.some((problem) => /^OPERATOR_REGULATORY_STATEMENT must be one line/.test(problem)) &&
        error.problems.some((problem) => /^OPERATOR_TERMS_URL must be an https URL/.test(problem)) &&
        error.problems.some((problem) => /^OPERATOR_PRIVACY_URL must be an absolute https URL/.test(problem)),
    );
  });

  it('refuse invisible formatting characters in text shown to payers, and store names in NFC (issue 23 item 6)', () => {
    for (const spoof of ['Example \u202EyaP', 'Exam\u200Bple Pay', '\u2066Example Pay\u2069']) {
      assert.throws(
        () => loadConfig({ OPERATOR_NAME: spoof }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.problems.some((problem) => /^OPERATOR_NAME must not contain invisible formatting characters/.test(problem)),
        JSON.stringify(spoof),
      );
    }
    assert.equal(loadConfig({ OPERATOR_NAME: 'Cafe\u0301 Pay' }).operator.name, 'Caf\u00e9 Pay');
  });
});
