/**
 * The step table (src/flow/step-table.ts) against the transition table (src/domain/transitions.ts): every detailed
 * status has a row, the kind of each row agrees with what the transition table lets the status do, and every payer
 * page a row names is a registered payer step shown in exactly the statuses that name it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DETAILED_STATUSES, isFinal } from '../../src/domain/detailed-status.js';
import { TRANSITIONS } from '../../src/domain/transitions.js';
import { AUTOMATIC_STATUSES, STEP_TABLE, statusesShownOn, type PayerPageName } from '../../src/flow/step-table.js';
import { PAYER_STEPS } from '../../src/hosted/payer-steps.js';

describe('the step table', () => {
  it('has one row for every detailed status and no other', () => {
    assert.deepEqual(Object.keys(STEP_TABLE).sort(), [...DETAILED_STATUSES].sort());
  });

  it('marks exactly the final statuses of the transition table as final', () => {
    for (const status of DETAILED_STATUSES) {
      assert.equal(STEP_TABLE[status].kind === 'final', isFinal(status), status);
      assert.equal(STEP_TABLE[status].kind === 'final', TRANSITIONS[status].length === 0, status);
    }
  });

  it('waits for the payer in every REDIRECT_PENDING status and in no other, and has a page for each', () => {
    for (const status of DETAILED_STATUSES) {
      const row = STEP_TABLE[status];
      assert.equal(row.kind === 'payer', status.endsWith('_REDIRECT_PENDING'), status);
      if (row.kind === 'payer') assert.ok(row.pages.length > 0, status);
    }
  });

  it('never rests in a CALLBACK_PROCESSING status unless the bank is to answer there', () => {
    for (const status of DETAILED_STATUSES.filter((candidate) => candidate.endsWith('_CALLBACK_PROCESSING_PENDING'))) {
      assert.ok(['passing', 'bank'].includes(STEP_TABLE[status].kind), status);
    }
  });

  it('continues by itself only from checks, the account list and the registration, each with a way forward', () => {
    assert.ok(AUTOMATIC_STATUSES.length > 0);
    for (const status of AUTOMATIC_STATUSES) {
      assert.match(status, /_REQUIRED_CHECK_PENDING$|_RETRIEVAL_PENDING$|^PAYMENT_REGISTRATION_PENDING$/);
      assert.ok(
        TRANSITIONS[status].some((to) => !isFinal(to)),
        status,
      );
    }
  });

  it('names only payer pages that are registered steps, each shown in exactly the statuses naming it', () => {
    const pages = new Set<PayerPageName>(
      DETAILED_STATUSES.flatMap((status) => {
        const row = STEP_TABLE[status];
        return row.kind === 'passing' ? [] : row.pages;
      }),
    );
    for (const page of pages) {
      const step = PAYER_STEPS.find((candidate) => candidate.name === page);
      assert.ok(step !== undefined, `no payer step named ${page}`);
      assert.deepEqual(step.waitsIn, statusesShownOn(page), page);
    }
  });

  it('shows the outcome page from execution on and in every final status', () => {
    assert.deepEqual(
      statusesShownOn('outcome'),
      DETAILED_STATUSES.filter((status) => isFinal(status) || status === 'PAYMENT_EXECUTION_PENDING'),
    );
  });
});
