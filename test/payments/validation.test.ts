import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadCatalogue } from '../../src/providers/catalogue.js';
import { validatePaymentCreation, type PaymentValidationResult } from '../../src/payments/validation.js';
import { paymentRequest, withField, IBANS } from '../helpers/payment-requests.js';

const catalogue = loadCatalogue(undefined, 'http://127.0.0.1:1/sandbox-bank');
const sandbox = { environment: 'sandbox' as const, catalogue, allowPrivateWebhookTargets: false };
const banks = catalogue.banks('sandbox');
const bankNamed = (name: string) => {
  const bank = banks.find((candidate) => candidate.name === name);
  assert.ok(bank, `no sandbox bank ${name}`);
  return bank;
};
const group = catalogue.list('sandbox').find((entry) => entry.kind === 'group');

function violations(result: PaymentValidationResult): readonly string[] {
  return result.kind === 'invalid' ? result.violations : [];
}

function expectValid(body: unknown, context = sandbox) {
  const result = validatePaymentCreation(body, context);
  assert.equal(result.kind, 'valid', `expected valid, got ${JSON.stringify(result)}`);
  return result.kind === 'valid' ? result.payment : assert.fail();
}

function expectViolation(body: unknown, message: string, context = sandbox) {
  const result = validatePaymentCreation(body, context);
  assert.equal(result.kind, 'invalid');
  assert.ok(violations(result).includes(message), `expected "${message}" in ${JSON.stringify(violations(result))}`);
}

describe('payment creation validation', () => {
  it('accepts a complete hosted-mode request and normalises amount and IBANs', () => {
    const payment = expectValid(withField(paymentRequest(), 'recipient.account.number.value', 'de89 3704 0044 0532 0130 00'));
    assert.equal(payment.mode, 'hosted');
    assert.equal(payment.amount, '10.50');
    assert.equal(payment.bank, undefined);
    assert.equal(payment.request.recipient.account.number.value, IBANS.DE);
  });

  it('reports every violation of a body at once', () => {
    const result = validatePaymentCreation({ amount: 0, provider: { id: 'nope' } }, sandbox);
    const found = violations(result);
    for (const message of [
      'provider.id must be a UUID',
      'paymentScheme should not be empty',
      'recipient should not be empty',
      'amount must not be less than 0.01',
      'currency should not be empty',
      'remittanceInformation should not be empty',
      'metadata should not be empty',
    ]) {
      assert.ok(found.includes(message), `missing "${message}" in ${JSON.stringify(found)}`);
    }
  });

  it('rejects a body that is not an object', () => {
    expectViolation(null, 'body must be an object');
    expectViolation([1], 'body must be an object');
  });

  it('rejects unknown properties at any depth', () => {
    expectViolation(paymentRequest({ amout: 1 }), 'amout should not exist');
    expectViolation(withField(paymentRequest(), 'metadata.webhookURL', 'https://x.example'), 'metadata.webhookURL should not exist');
  });

  describe('amount', () => {
    it('must be a number', () => expectViolation(paymentRequest({ amount: '10.50' }), 'amount must be a number'));
    it('must be at least 0.01', () => {
      expectViolation(paymentRequest({ amount: 0.009 }), 'amount must not be less than 0.01');
      assert.equal(expectValid(paymentRequest({ amount: 0.01 })).amount, '0.01');
    });
    it('must be at most 999999999.99', () => {
      expectViolation(paymentRequest({ amount: 1000000000 }), 'amount must not be greater than 999999999.99');
      assert.equal(expectValid(paymentRequest({ amount: 999999999.99 })).amount, '999999999.99');
    });
    it("has no more decimals than the currency's minor unit", () => {
      expectViolation(paymentRequest({ amount: 10.005 }), 'amount must not have more than 2 decimal places for EUR');
      const jpy = paymentRequest({ paymentScheme: { name: 'DOMESTIC' }, currency: 'JPY', amount: 100.5 });
      expectViolation(jpy, 'amount must be a whole number for JPY');
    });
    it('keeps the exact decimal (no float artefacts)', () => {
      assert.equal(expectValid(paymentRequest({ amount: 0.1 })).amount, '0.10');
      assert.equal(expectValid(paymentRequest({ amount: 123456789.07 })).amount, '123456789.07');
      assert.equal(expectValid(paymentRequest({ amount: 7 })).amount, '7.00');
    });
  });

  describe('currency and scheme', () => {
    it('currency must be an ISO 4217 code of the spec', () => {
      expectViolation(paymentRequest({ currency: 'EURO' }), 'currency must be an ISO 4217 currency code in upper case (e.g. EUR)');
    });
    it('SEPA requires EUR', () => {
      expectViolation(paymentRequest({ currency: 'PLN' }), 'currency must be EUR for the SEPA payment scheme');
    });
    it('scheme name and preferences are enumerations', () => {
      expectViolation(
        paymentRequest({ paymentScheme: { name: 'SWIFT' } }),
        'paymentScheme.name must be one of the following values: SEPA, DOMESTIC',
      );
      expectViolation(
        paymentRequest({ paymentScheme: { name: 'SEPA', preferences: { mode: 'FAST' } } }),
        'paymentScheme.preferences.mode must be one of the following values: INSTANT, STANDARD',
      );
      expectViolation(
        paymentRequest({ paymentScheme: { name: 'SEPA', preferences: { feePaidBy: 'ME' } } }),
        'paymentScheme.preferences.feePaidBy must be one of the following values: DEBT, CRED, SHAR, SLEV',
      );
      expectValid(paymentRequest({ paymentScheme: { name: 'SEPA', preferences: { mode: 'INSTANT', feePaidBy: 'SLEV' } } }));
    });
  });

  describe('accounts and addresses', () => {
    it('IBANs need a valid length and checksum', () => {
      expectViolation(
        withField(paymentRequest(), 'recipient.account.number.value', 'DE89370400440532013001'),
        'recipient.account.number.value must be a valid IBAN',
      );
      expectViolation(
        withField(paymentRequest(), 'recipient.account.number.value', 'DE8937040044053201300'),
        'recipient.account.number.value must be a valid IBAN',
      );
      expectViolation(
        withField(paymentRequest(), 'recipient.account.number.type', 'BBAN'),
        'recipient.account.number.type must be one of the following values: IBAN',
      );
    });
    it('an IBAN of the wrong shape is one violation, worded as a bad checksum is (the shape is a pattern, the checksum a format)', () => {
      for (const value of ['DE89-3704-0044-0532-0130-00', 'DE89  370400440532013000', '89DE370400440532013000']) {
        const result = validatePaymentCreation(withField(paymentRequest(), 'recipient.account.number.value', value), sandbox);
        assert.deepEqual(violations(result), ['recipient.account.number.value must be a valid IBAN'], value);
      }
    });
    it('a sender account needs number and currency', () => {
      expectViolation(
        paymentRequest({ sender: { account: { number: { type: 'IBAN', value: IBANS.FR } } } }),
        'sender.account.currency should not be empty',
      );
      expectViolation(paymentRequest({ sender: { account: { currency: 'EUR' } } }), 'sender.account.number should not be empty');
      expectValid(paymentRequest({ sender: { account: { number: { type: 'IBAN', value: IBANS.FR }, currency: 'EUR' } } }));
    });
    it('addresses need all five fields and a listed country', () => {
      expectViolation(
        withField(paymentRequest(), 'recipient.address.postCode', undefined),
        'recipient.address.postCode should not be empty',
      );
      expectViolation(
        withField(paymentRequest(), 'recipient.address.country', 'XX'),
        'recipient.address.country must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
      );
      // Issue 23: a lower-case code is refused with a message that says codes are upper case, in every code field.
      expectViolation(
        withField(paymentRequest(), 'recipient.address.country', 'de'),
        'recipient.address.country must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
      );
      expectViolation(
        paymentRequest({ sender: { address: { country: 'de', city: 'Berlin', streetName: 'A', buildingNumber: '1', postCode: '10117' } } }),
        'sender.address.country must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
      );
      expectViolation(
        paymentRequest({ provider: { preferences: { countryCodes: { list: ['de'], default: 'de' } } } }),
        'provider.preferences.countryCodes.list.0 must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
      );
      expectViolation(
        paymentRequest({ provider: { preferences: { countryCodes: { default: 'de' } } } }),
        'provider.preferences.countryCodes.default must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
      );
      expectViolation(paymentRequest({ currency: 'eur' }), 'currency must be an ISO 4217 currency code in upper case (e.g. EUR)');
      expectViolation(withField(paymentRequest(), 'recipient.address.city', ''), 'recipient.address.city should not be empty');
    });
    it('recipient name is required and bounded', () => {
      expectViolation(withField(paymentRequest(), 'recipient.name', undefined), 'recipient.name should not be empty');
      expectViolation(
        withField(paymentRequest(), 'recipient.name', 'x'.repeat(71)),
        'recipient.name must be shorter than or equal to 70 characters',
      );
    });
  });

  describe('remittance information', () => {
    it('allows only letters, digits, / + - and space', () => {
      expectViolation(
        withField(paymentRequest(), 'remittanceInformation.value', 'Invoice #1'),
        'remittanceInformation.value must contain only letters, digits, /, +, - and spaces',
      );
      expectValid(withField(paymentRequest(), 'remittanceInformation.value', 'Ref 12/34+56-7'));
    });
    it('is 1 to 140 characters', () => {
      expectViolation(
        withField(paymentRequest(), 'remittanceInformation.value', 'a'.repeat(141)),
        'remittanceInformation.value must be shorter than or equal to 140 characters',
      );
      expectViolation(withField(paymentRequest(), 'remittanceInformation.value', ''), 'remittanceInformation.value should not be empty');
      expectValid(withField(paymentRequest(), 'remittanceInformation.value', 'a'.repeat(140)));
    });
    it("respects a bank's lower limit: rejected in custom mode unless truncation is allowed", () => {
      const polder = bankNamed('Polder Sandbox Bank');
      const long = withField(paymentRequest({ provider: { id: polder.id } }), 'remittanceInformation.value', 'a'.repeat(36));
      expectViolation(
        long,
        `remittanceInformation.value must be shorter than or equal to 35 characters for Polder Sandbox Bank (or set remittanceInformation.preferences.truncate)`,
      );
      const truncated = expectValid(withField(long, 'remittanceInformation.preferences', { truncate: true }));
      assert.equal(truncated.remittance, 'a'.repeat(35));
    });
  });

  describe('metadata', () => {
    it('redirectUri must be https, http only on loopback for sandbox clients', () => {
      expectViolation(
        withField(paymentRequest(), 'metadata.redirectUri', 'http://merchant.example/return'),
        'metadata.redirectUri must be an https URL (http only for localhost, sandbox clients only)',
      );
      expectValid(withField(paymentRequest(), 'metadata.redirectUri', 'http://localhost:3000/return'));
      expectValid(withField(paymentRequest(), 'metadata.redirectUri', 'http://127.0.0.1:3000/return'));
      expectViolation(withField(paymentRequest(), 'metadata.redirectUri', 'not a url'), 'metadata.redirectUri must be an absolute URL');
      expectViolation(withField(paymentRequest(), 'metadata.redirectUri', undefined), 'metadata.redirectUri should not be empty');
    });
    it('webhookUrl must be https', () => {
      expectViolation(
        withField(paymentRequest(), 'metadata.webhookUrl', 'http://hooks.example/x'),
        'metadata.webhookUrl must be an https URL',
      );
      expectValid(withField(paymentRequest(), 'metadata.webhookUrl', 'https://hooks.example/x'));
    });
    it('webhookUrl must not carry a user name or password', () => {
      for (const url of ['https://user:pw@hooks.example/x', 'https://user@hooks.example/x', 'https://:pw@hooks.example/x']) {
        expectViolation(
          withField(paymentRequest(), 'metadata.webhookUrl', url),
          'metadata.webhookUrl must not contain a user name or password',
        );
      }
    });
    it('webhookUrl must not name a loopback, private, link-local, metadata or reserved address', () => {
      const refused: [string, string][] = [
        ['https://127.0.0.1/x', 'loopback'],
        ['https://127.1.2.3:8443/x', 'loopback'],
        ['https://2130706433/x', 'loopback'],
        ['https://0x7f.1/x', 'loopback'],
        ['https://[::1]/x', 'loopback'],
        ['https://[::ffff:127.0.0.1]/x', 'loopback'],
        ['https://localhost/x', 'loopback'],
        ['https://hooks.localhost/x', 'loopback'],
        ['https://10.1.2.3/x', 'private'],
        ['https://192.168.0.10/x', 'private'],
        ['https://172.16.5.5/x', 'private'],
        ['https://169.254.10.10/x', 'link-local'],
        ['https://[fe80::1]/x', 'link-local'],
        ['https://[fd00::1]/x', 'unique-local'],
        ['https://169.254.169.254/latest/meta-data', 'cloud metadata'],
        ['https://metadata.google.internal/x', 'cloud metadata'],
        ['https://0.0.0.0/x', 'unspecified'],
        ['https://192.0.2.1/x', 'reserved'],
        ['https://224.0.0.1/x', 'multicast'],
      ];
      for (const [url, kind] of refused) {
        expectViolation(
          withField(paymentRequest(), 'metadata.webhookUrl', url),
          `metadata.webhookUrl must point to a public address (${kind} addresses are not allowed)`,
        );
      }
      expectValid(withField(paymentRequest(), 'metadata.webhookUrl', 'https://93.184.215.14/x'));
      expectValid(withField(paymentRequest(), 'metadata.webhookUrl', 'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/x'));
    });
    it('webhookUrl may name private and loopback addresses when the operator allows private targets, never metadata', () => {
      const allowing = { ...sandbox, allowPrivateWebhookTargets: true };
      for (const url of ['https://127.0.0.1:9443/x', 'https://localhost/x', 'https://10.1.2.3/x', 'https://[::1]/x']) {
        expectValid(withField(paymentRequest(), 'metadata.webhookUrl', url), allowing);
      }
      expectViolation(
        withField(paymentRequest(), 'metadata.webhookUrl', 'https://169.254.169.254/x'),
        'metadata.webhookUrl must point to a public address (cloud metadata addresses are not allowed)',
        allowing,
      );
      expectViolation(
        withField(paymentRequest(), 'metadata.webhookUrl', 'https://u:p@127.0.0.1/x'),
        'metadata.webhookUrl must not contain a user name or password',
        allowing,
      );
      expectViolation(
        withField(paymentRequest(), 'metadata.webhookUrl', 'http://127.0.0.1/x'),
        'metadata.webhookUrl must be an https URL',
        allowing,
      );
    });
    it('psuIpAddress is a full IPv4 or expanded IPv6 address', () => {
      const message = 'metadata.psuIpAddress must be an IPv4 address (four octets) or a full IPv6 address (eight groups, no ::)';
      for (const bad of ['203.0.113', '256.1.1.1', '2001:db8::1', '01.2.3.4', 'localhost']) {
        expectViolation(withField(paymentRequest(), 'metadata.psuIpAddress', bad), message);
      }
      for (const good of ['0.0.0.0', '255.255.255.255', '2001:0db8:0000:0000:0000:ff00:0042:8329', '2001:db8:0:0:0:ff00:42:8329']) {
        expectValid(withField(paymentRequest(), 'metadata.psuIpAddress', good));
      }
    });
    it('psuUserAgent is required', () => {
      expectViolation(withField(paymentRequest(), 'metadata.psuUserAgent', ''), 'metadata.psuUserAgent should not be empty');
    });
    it('endToEndId is 1-64 printable ASCII characters, without leading or trailing spaces', () => {
      expectViolation(
        withField(paymentRequest(), 'metadata.endToEndId', 'x'.repeat(65)),
        'metadata.endToEndId must be shorter than or equal to 64 characters',
      );
      expectViolation(
        withField(paymentRequest(), 'metadata.endToEndId', 'zoë'),
        'metadata.endToEndId must contain only printable ASCII characters, without leading or trailing spaces',
      );
      expectViolation(
        withField(paymentRequest(), 'metadata.endToEndId', ' '),
        'metadata.endToEndId must contain only printable ASCII characters, without leading or trailing spaces',
      );
      expectValid(withField(paymentRequest(), 'metadata.endToEndId', 'x'.repeat(64)));
    });
  });

  describe('provider', () => {
    it('custom mode: a known bank that supports scheme and currency', () => {
      const rheinland = bankNamed('Rheinland Sandbox Bank');
      const payment = expectValid(paymentRequest({ provider: { id: rheinland.id } }));
      assert.equal(payment.mode, 'custom');
      assert.equal(payment.bank?.id, rheinland.id);
    });
    it('an unknown id is reported as such (404 at the API)', () => {
      const result = validatePaymentCreation(paymentRequest({ provider: { id: '00000000-0000-4000-8000-000000000000' } }), sandbox);
      assert.deepEqual(result, { kind: 'unknown-provider', providerId: '00000000-0000-4000-8000-000000000000' });
    });
    it('a bank of another environment is unknown to the caller', () => {
      const result = validatePaymentCreation(paymentRequest({ provider: { id: bankNamed('Rheinland Sandbox Bank').id } }), {
        ...sandbox,
        environment: 'production',
      });
      assert.equal(result.kind, 'unknown-provider');
    });
    it('a bank-group parent is refused', () => {
      assert.ok(group);
      expectViolation(
        paymentRequest({ provider: { id: group.id } }),
        `provider.id must be a subsidiary of ${group.name}, not the group itself`,
      );
    });
    it('the bank must support the scheme and the currency', () => {
      const thames = bankNamed('Thames Sandbox Bank');
      expectViolation(
        paymentRequest({ provider: { id: thames.id } }),
        'provider.id must name a bank that supports the SEPA payment scheme (Thames Sandbox Bank does not)',
      );
      expectViolation(
        paymentRequest({ provider: { id: thames.id }, paymentScheme: { name: 'DOMESTIC' }, currency: 'EUR' }),
        'provider.id must name a bank that supports payments in EUR (Thames Sandbox Bank does not)',
      );
      expectValid(
        paymentRequest({
          provider: { id: thames.id },
          paymentScheme: { name: 'DOMESTIC' },
          currency: 'GBP',
          recipient: {
            account: { number: { type: 'IBAN', value: IBANS.GB } },
            name: 'Shop Ltd',
            address: { country: 'GB', city: 'London', streetName: 'Strand', buildingNumber: '1', postCode: 'WC2N 5HR' },
          },
        }),
      );
    });
    it('hosted mode: country preferences are codes, the default among them, and some bank must fit', () => {
      expectViolation(
        paymentRequest({ provider: { preferences: { countryCodes: { list: ['DE', 'XX'] } } } }),
        'provider.preferences.countryCodes.list.1 must be an ISO 3166-1 alpha-2 country code in upper case (e.g. DE)',
      );
      expectViolation(
        paymentRequest({ provider: { preferences: { countryCodes: { list: ['DE'], default: 'FR' } } } }),
        'provider.preferences.countryCodes.default must be one of provider.preferences.countryCodes.list',
      );
      expectViolation(
        paymentRequest({ provider: { preferences: { countryCodes: { list: ['GB'] } } } }),
        'provider.preferences.countryCodes.list must include a country where an available bank supports SEPA payments in EUR',
      );
      expectValid(paymentRequest({ provider: { preferences: { countryCodes: { list: ['DE', 'FR'], default: 'FR' } } } }));
    });
  });

  it('never returns the password among violations', () => {
    const result = validatePaymentCreation(paymentRequest({ sender: { credentials: { password: 'hunter2', extra: 1 } } }), sandbox);
    assert.ok(!JSON.stringify(result).includes('hunter2'));
  });
});
