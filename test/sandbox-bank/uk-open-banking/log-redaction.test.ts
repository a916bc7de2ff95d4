/**
 * The UK sandbox's page and bank-app URLs carry the payer's session tokens; request logs (the service's and the
 * stand-alone sandbox's) must not show them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactUrl } from '../../../src/app.js';
import { redactPageToken } from '@openpis/sandbox-bank';

describe('UK sandbox page tokens in logs', () => {
  it('are redacted in the service log (embedded sandbox)', () => {
    assert.equal(redactUrl('/sandbox-bank/uk/albion/pay/AbC_123-xyz'), '/sandbox-bank/uk/albion/pay/[token]');
    assert.equal(redactUrl('/sandbox-bank/uk/pennine/app/tok-9'), '/sandbox-bank/uk/pennine/app/[token]');
    assert.equal(redactUrl('/sandbox-bank/uk/pennine/app'), '/sandbox-bank/uk/pennine/app');
  });

  it('are redacted in the stand-alone sandbox log', () => {
    assert.equal(redactPageToken('/uk/severn/pay/AbC_123-xyz'), '/uk/severn/pay/[token]');
    assert.equal(redactPageToken('/uk/pennine/app/tok-9?x=1'), '/uk/pennine/app/[token]?x=1');
  });
});
