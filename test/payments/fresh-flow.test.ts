/**
 * The fresh flow every new payment starts with (src/domain/fresh-flow.ts), whoever makes it (the API, a retry, a
 * refund, a payment link's payer): the first status of its mode, a new flow token, no bank reference, flow state,
 * payer or bulk, version 1, and the deadline from the moment it was made.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshFlow } from '../../src/domain/fresh-flow.js';

describe('the fresh flow of a new payment', () => {
  it('starts at the first status of its mode with a new flow token, nothing of a bank yet, and its deadline from now', () => {
    const now = new Date('2026-11-28T12:00:00.000Z');
    const hosted = freshFlow('hosted', now, 900);
    assert.deepEqual(
      { ...hosted, flowToken: undefined },
      {
        flowToken: undefined,
        providerPaymentId: null,
        detailedStatus: 'PROVIDER_SELECTION_REDIRECT_PENDING',
        failureReasons: null,
        version: 1,
        createdAt: '2026-11-28T12:00:00.000Z',
        updatedAt: '2026-11-28T12:00:00.000Z',
        flowExpiresAt: '2026-11-28T12:15:00.000Z',
        flowState: null,
        payer: null,
        bulkLeaderId: null,
      },
    );
    assert.match(hosted.flowToken, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(freshFlow('hosted', now, 900).flowToken, hosted.flowToken);
    assert.notEqual(freshFlow('custom', now, 900).detailedStatus, 'PROVIDER_SELECTION_REDIRECT_PENDING');
  });
});
