/** The UK sandbox keeps a bounded memory: past `maxConsents`, the oldest finished consents (and payments) go first. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gbpPayment, payerAtBank, startUkBank, Tpp } from './tpp.js';

describe('UK sandbox memory bound', () => {
  it('evicts the oldest finished consent first, keeping one still awaiting authorisation', async () => {
    const bank = await startUkBank({ maxConsents: 2 });
    try {
      const tpp = await new Tpp(bank, 'albion').register();
      const token = await tpp.clientCredentialsToken();
      const waiting = await tpp.createConsent(gbpPayment('1.00'), { token });
      const denied = await tpp.createConsent(gbpPayment('1.00'), { token });
      await payerAtBank(await tpp.authorizeUrl(denied.body.Data.ConsentId), { psuId: 'alice', decision: 'deny' });
      const third = await tpp.createConsent(gbpPayment('1.00'), { token });
      assert.equal(third.status, 201);
      const read = (id: string) => tpp.api('GetDomesticPaymentConsentsConsentId', 'GET', `/domestic-payment-consents/${id}`, { token });
      assert.equal((await read(waiting.body.Data.ConsentId)).status, 200, 'the open consent stays');
      const gone = await read(denied.body.Data.ConsentId);
      assert.equal(gone.status, 400);
      assert.equal(gone.body.Errors[0].ErrorCode, 'U012');
    } finally {
      await bank.close();
    }
  });
});
