import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildPaymentStatusUpdatedEvent,
  paymentStatusWebhookBody,
  serialiseWebhookEvent,
  type StatusRecordForEvent,
} from '../../src/webhooks/payload.js';

const record: StatusRecordForEvent = {
  paymentId: '5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11',
  endToEndId: 'order-4711',
  statusId: '0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22',
  detailedStatus: 'PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED',
  failureReasons: [{ code: 'PSU_CANCELLED', message: 'The payer cancelled at the bank.' }],
  createdAt: new Date('2025-03-01T10:15:30.123Z'),
};

describe('payment.status.updated body', () => {
  it('has exactly the fields of decisions §4, in that order', () => {
    assert.equal(
      paymentStatusWebhookBody(record),
      '{"type":"payment.status.updated","timestamp":"2025-03-01T10:15:30.123Z","data":{' +
        '"paymentId":"5f0c1d52-7a4e-4d0b-9a55-0c2f3c4f6a11","endToEndId":"order-4711",' +
        '"statusId":"0d6b2a8e-4f7e-4b9f-8a3b-2f1c9a7e5d22","status":"FAILED",' +
        '"detailedStatus":"PAYMENT_CONSENT_CALLBACK_PROCESSING_FAILED",' +
        '"failureReasons":[{"code":"PSU_CANCELLED","message":"The payer cancelled at the bank."}],' +
        '"createdAt":"2025-03-01T10:15:30.123Z"}}',
    );
  });

  it('derives the top-level status from the detailed one', () => {
    const status = (detailedStatus: StatusRecordForEvent['detailedStatus']) =>
      buildPaymentStatusUpdatedEvent({ ...record, detailedStatus, failureReasons: null }).data.status;
    assert.equal(status('PAYMENT_EXECUTION_COMPLETED'), 'COMPLETED');
    assert.equal(status('PAYMENT_EXECUTION_PENDING'), 'PENDING');
    assert.equal(status('PAYMENT_REGISTRATION_FAILED'), 'FAILED');
  });

  it('writes null, not an empty list, when there is no failure', () => {
    const event = buildPaymentStatusUpdatedEvent({ ...record, detailedStatus: 'PAYMENT_EXECUTION_PENDING', failureReasons: [] });
    assert.equal(event.data.failureReasons, null);
  });

  it('uses the event time when it differs from the record time, and normalises ISO strings to UTC', () => {
    const event = buildPaymentStatusUpdatedEvent(
      { ...record, createdAt: '2025-03-01T11:15:30.123+01:00' },
      new Date('2025-03-01T10:15:31Z'),
    );
    assert.equal(event.timestamp, '2025-03-01T10:15:31.000Z');
    assert.equal(event.data.createdAt, '2025-03-01T10:15:30.123Z');
  });

  it('does not leak properties the record happens to carry', () => {
    const extended = { ...record, secret: 'do not send', failureReasons: [{ ...record.failureReasons![0]!, internal: 1 }] };
    const body = paymentStatusWebhookBody(extended);
    assert.ok(!body.includes('do not send'));
    assert.ok(!body.includes('internal'));
  });

  it('serialises the same event to the same bytes every time', () => {
    const event = buildPaymentStatusUpdatedEvent(record);
    assert.equal(serialiseWebhookEvent(event), serialiseWebhookEvent(JSON.parse(serialiseWebhookEvent(event))));
  });

  it('rejects an invalid date instead of sending "Invalid Date"', () => {
    assert.throws(() => buildPaymentStatusUpdatedEvent({ ...record, createdAt: 'yesterday' }), RangeError);
  });
});
