/**
 * The flow state is grouped in memory and flat in the database. The stored JSON is what every earlier version wrote
 * (a row of an earlier version, or of one running beside this one in a rolling upgrade, reads and writes both ways):
 * each stored field lands in its group and comes back under its own name, fields this version does not know survive
 * a read-modify-write, an unchanged state is written as the same bytes, and a corrupt row fails with an error naming
 * the payment and the field, never as a silent cast that a step would trip over later.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CorruptFlowStateError,
  flowStateOf,
  STORED_FLOW_STATE_FIELDS,
  toStoredFlowState,
  withChanges,
  withUnleasedFields,
  type FlowState,
} from '../../src/flow/flow-state.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { ukPaymentRequest } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { WAIT_BOUND_MS, waitFor } from '../helpers/wait.js';
import { get } from '../hosted/http-payer.js';
import { payerInBankApp } from '../sandbox-bank/uk-open-banking/tpp.js';

/** A row's flow state with every stored field this version knows, in the order this version writes them. */
const EVERY_FIELD_ROW: Record<string, unknown> = {
  pageKey: 'k3y',
  leaseUntil: '2026-11-28T04:01:00.000Z',
  callback: { hash: 'abc', purpose: 'payment' },
  spentCallbackHash: 'def',
  notification: { hash: 'n-hash', sealed: 'n-sealed', confirmed: true },
  bankEndToEndId: 'e2e0001',
  bankPayment: { paymentId: 'P-1', product: 'sepa-credit-transfers', links: { self: '/v1/payments/P-1' } },
  authorisation: { authorisationId: 'A-1' },
  scaApproach: 'EMBEDDED',
  bankRedirectUrl: 'https://bank.example/authorise',
  scaMethods: [{ id: 'sms', type: 'SMS_OTP', name: 'SMS' }],
  chosenScaMethod: { id: 'sms', type: 'SMS_OTP' },
  challenge: { otpMaxLength: 6, otpFormat: 'integer', data: ['x'] },
  decoupledAppUrl: 'https://bank.example/app',
  consent: { consentId: 'C-1' },
  consentAuthorisation: { authorisationId: 'CA-1' },
  accounts: [{ iban: 'DE89370400440532013000', currency: 'EUR', name: 'Giro' }],
  heldSecret: 'sealed',
  reconciling: true,
  openCall: { operation: 'authoriseTransaction', sentAt: '2026-11-28T04:00:00.000Z' },
  providerPaymentId: 'P-1',
  bankPendingAlerted: true,
  failedLogins: 1,
  failedCodes: 2,
  senderAccountFromPayer: true,
  codeNotProcessed: true,
  outcomeShown: true,
  cancelledOnPage: true,
};

/** The same state grouped: what the steps read. */
const EVERY_FIELD_GROUPED = {
  leaseUntil: '2026-11-28T04:01:00.000Z',
  page: {
    key: 'k3y',
    callback: { hash: 'abc', purpose: 'payment' },
    spentCallbackHash: 'def',
    outcomeShown: true,
    cancelledOnPage: true,
  },
  bank: {
    payment: { paymentId: 'P-1', product: 'sepa-credit-transfers', links: { self: '/v1/payments/P-1' } },
    endToEndId: 'e2e0001',
    providerPaymentId: 'P-1',
    notification: { hash: 'n-hash', sealed: 'n-sealed', confirmed: true },
  },
  authorisation: {
    reference: { authorisationId: 'A-1' },
    scaApproach: 'EMBEDDED',
    bankRedirectUrl: 'https://bank.example/authorise',
    scaMethods: [{ id: 'sms', type: 'SMS_OTP', name: 'SMS' }],
    chosenScaMethod: { id: 'sms', type: 'SMS_OTP' },
    challenge: { otpMaxLength: 6, otpFormat: 'integer', data: ['x'] },
    decoupledAppUrl: 'https://bank.example/app',
    heldSecret: 'sealed',
    failedLogins: 1,
    failedCodes: 2,
    codeNotProcessed: true,
  },
  senderAccount: {
    consent: { consentId: 'C-1' },
    consentAuthorisation: { authorisationId: 'CA-1' },
    accounts: [{ iban: 'DE89370400440532013000', currency: 'EUR', name: 'Giro' }],
    fromPayer: true,
  },
  reconciliation: {
    reconciling: true,
    openCall: { operation: 'authoriseTransaction', sentAt: '2026-11-28T04:00:00.000Z' },
    bankPendingAlerted: true,
  },
};

function read(flowState: Record<string, unknown> | null, id = 'p1'): FlowState {
  return flowStateOf({ id, flowState });
}

describe('the flow state, grouped in memory and flat in the database', () => {
  it('puts every stored field in its group and writes it back under its own name', () => {
    assert.deepEqual(Object.keys(EVERY_FIELD_ROW), STORED_FLOW_STATE_FIELDS, 'the row has every field the schema knows');
    const state = read(EVERY_FIELD_ROW);
    assert.deepEqual(state, EVERY_FIELD_GROUPED, 'every field in its group, nothing left over as unknown');
    assert.deepEqual(toStoredFlowState(state), EVERY_FIELD_ROW);
    assert.equal(JSON.stringify(toStoredFlowState(state)), JSON.stringify(EVERY_FIELD_ROW), 'the same bytes');
  });

  it('reads an absent state as an empty one, and writes an empty state as an empty object', () => {
    assert.deepEqual(read(null), {});
    assert.deepEqual(read({}), {});
    assert.deepEqual(toStoredFlowState({}), {});
  });

  it('has no empty groups: a group whose last field is removed is gone, in memory and in the stored JSON', () => {
    const state = read({ pageKey: 'k', reconciling: true });
    assert.deepEqual(Object.keys(state).sort(), ['page', 'reconciliation']);
    const settled = withChanges(state, { reconciliation: { reconciling: undefined, openCall: undefined } });
    assert.deepEqual(settled, { page: { key: 'k' } });
    assert.equal(JSON.stringify(toStoredFlowState(settled)), '{"pageKey":"k"}');
    // Changing nothing but clearing what is not there leaves no trace either.
    assert.deepEqual(withChanges({}, { bank: { providerPaymentId: undefined }, leaseUntil: undefined }), {});
  });

  it('changes a state group by group, as a new object, the rest kept', () => {
    const state = read(EVERY_FIELD_ROW);
    const changed = withChanges(state, { authorisation: { failedLogins: 2, heldSecret: undefined }, leaseUntil: undefined });
    assert.equal(changed.authorisation?.failedLogins, 2);
    assert.equal(changed.authorisation?.heldSecret, undefined);
    assert.equal(changed.authorisation?.challenge?.otpMaxLength, 6, 'the group keeps its other fields');
    assert.equal(changed.leaseUntil, undefined);
    assert.equal(changed.bank, state.bank, 'an untouched group is the same object');
    assert.deepEqual(state, EVERY_FIELD_GROUPED, 'the state read is not changed in place');
  });

  it('keeps the stored bytes of an unchanged row through a lease taken and released', () => {
    const row = JSON.parse(JSON.stringify(EVERY_FIELD_ROW)) as Record<string, unknown>;
    delete row.leaseUntil;
    const leased = toStoredFlowState(withChanges(read(row), { leaseUntil: '2026-11-28T05:00:00.000Z' }));
    const released = toStoredFlowState(withChanges(read(leased), { leaseUntil: undefined }));
    assert.equal(JSON.stringify(released), JSON.stringify(row));
  });

  it('keeps fields it does not know (a row of a later version) through a read-modify-write', () => {
    const row = { pageKey: 'k', somethingNew: { a: 1 }, callback: { hash: 'h', purpose: 'payment', laterDetail: 'x' } };
    const state = read(row);
    assert.equal(state.page?.key, 'k');
    assert.deepEqual(state.unknownFields, { somethingNew: { a: 1 } });
    const written = toStoredFlowState(withChanges(state, { reconciliation: { reconciling: true }, page: { outcomeShown: true } }));
    assert.deepEqual(written, {
      pageKey: 'k',
      callback: { hash: 'h', purpose: 'payment', laterDetail: 'x' },
      reconciling: true,
      outcomeShown: true,
      somethingNew: { a: 1 },
    });
    // And read again by this version (or an earlier one), the same.
    assert.deepEqual(toStoredFlowState(read(written)), written);
  });

  it('takes the fields written without the lease from the current row, the rest from the holder', () => {
    const holder = read({ bankPayment: { id: 'P' }, reconciling: true, failedCodes: 1 });
    const current = read({ pageKey: 'new-key', outcomeShown: true, bankPendingAlerted: true, failedCodes: 3 });
    assert.deepEqual(toStoredFlowState(withUnleasedFields(holder, current)), {
      pageKey: 'new-key',
      bankPayment: { id: 'P' },
      reconciling: true,
      bankPendingAlerted: true,
      failedCodes: 1,
      outcomeShown: true,
    });
  });

  it('refuses a corrupt row with the payment and the field named', () => {
    assert.throws(
      () => read({ failedLogins: 'two' }, 'pay-7'),
      (error: unknown) => error instanceof CorruptFlowStateError && /pay-7/.test(error.message) && /failedLogins/.test(error.message),
    );
    assert.throws(
      () => read({ openCall: { operation: 'launchRocket', sentAt: 'now' } }, 'pay-8'),
      (error: unknown) => error instanceof CorruptFlowStateError && /pay-8/.test(error.message) && /openCall/.test(error.message),
    );
    assert.throws(
      () => read({ accounts: [{ iban: 7 }] }, 'pay-9'),
      (error: unknown) => error instanceof CorruptFlowStateError && /pay-9/.test(error.message) && /accounts/.test(error.message),
    );
  });
});

const PENNINE = 'f9649db5-0013-49e6-8e71-bc2f4f38f24b';

for (const kind of await testDatabaseKinds()) {
  describe(`a field of a later version in a payment's stored flow state, through a whole journey (${kind.name})`, () => {
    let app: TestApp;
    let token: string;

    before(async () => {
      app = await startTestApp(kind);
      token = await (await app.createClient()).token();
    });
    after(async () => {
      await app?.close();
    });

    async function storedText(paymentId: string): Promise<string> {
      const row = await app.database.db.selectFrom('payments').select('flow_state').where('id', '=', paymentId).executeTakeFirstOrThrow();
      return row.flow_state ?? 'null';
    }

    it('is kept by every write of the engine, and the row stays readable', async () => {
      // A Pennine (CIBA) payment waits for the payer's approval in the bank's app.
      const created = await app.request('/api/v1/ob/payments', {
        method: 'POST',
        token,
        json: ukPaymentRequest(PENNINE, { sender: { credentials: { id: 'alice' } } }),
      });
      assert.equal(created.status, 201);
      const { paymentId, redirectUrl } = (await created.json()) as { paymentId: string; redirectUrl: string };
      const written = JSON.parse(await storedText(paymentId)) as Record<string, unknown>;
      await app.database.db
        .updateTable('payments')
        .set({ flow_state: JSON.stringify({ ...written, laterVersionField: { kept: true } }) })
        .where('id', '=', paymentId)
        .execute();

      // The payer's pages (page key), the bank's approval and the polls that find it and submit the payment all write it.
      assert.equal((await get(redirectUrl)).status, 200);
      assert.equal(await payerInBankApp({ base: `${app.baseUrl}/sandbox-bank/uk` }, 'pennine', 'alice', 'approve'), 1);
      await waitFor(
        'the payment authorised and at execution',
        async () => {
          await get(redirectUrl);
          const history = await app.request(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token });
          const records = (await history.json()) as Array<{ detailedStatus: string }>;
          return records.some((record) => record.detailedStatus === 'PAYMENT_EXECUTION_PENDING') ? true : undefined;
        },
        WAIT_BOUND_MS,
        500,
      );

      const text = await storedText(paymentId);
      const stored = JSON.parse(text) as Record<string, unknown>;
      assert.deepEqual(stored.laterVersionField, { kept: true });
      assert.equal(stored.pageKey !== undefined, true, 'the stored JSON stays flat');
      for (const group of ['page', 'bank', 'reconciliation', 'senderAccount', 'unknownFields']) {
        assert.equal(stored[group], undefined, `no "${group}" group in the stored JSON`);
      }
      // Read and written again unchanged: the same bytes.
      assert.equal(JSON.stringify(toStoredFlowState(flowStateOf({ id: paymentId, flowState: stored }))), text);
    });
  });
}
