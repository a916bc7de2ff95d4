/**
 * Bank addresses must be https (issue 23, item 5): the catalogue's base URLs and issuers, the links a Berlin Group
 * bank returns (`_links`: scaRedirect, status, scaStatus, start…), and a UK bank's discovery endpoints. Plain http
 * is for a sandbox bank only: on this machine, or the operator's own sandbox bank (`{SANDBOX_BANK_URL}`), and then a
 * bank on http may link only to its own origin or to this machine.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { getGlobalDispatcher } from 'undici';
import { BerlinGroupHttpClient } from '../../src/connectors/berlin-group/http-client.js';
import { BankProtocolError, createConnector, type CallContext } from '../../src/connectors/index.js';
import { bankMetadata, forgetBankMetadata } from '../../src/connectors/uk-open-banking/discovery.js';
import { HttpCore } from '../../src/connectors/http/core.js';
import { parseCatalogue } from '../../src/providers/catalogue.js';
import { settings, startFakeBank, type FakeBank } from './helpers/fake-bank.js';
import { returnTo } from './helpers/references.js';

const context: CallContext = { requestId: '99391c7e-ad88-49ec-a2ad-99ddcb1f7721' };
const isInsecure = (error: unknown): boolean => error instanceof BankProtocolError && /https is required/.test(error.message);

function bgClient(baseUrl: string): BerlinGroupHttpClient {
  return new BerlinGroupHttpClient(settings(baseUrl), {
    dispatcher: getGlobalDispatcher(),
    signer: undefined,
    logger: undefined,
    now: () => new Date(),
  });
}

describe('Berlin Group: links the bank returns', () => {
  let bank: FakeBank;
  before(async () => {
    bank = await startFakeBank();
  });
  after(async () => {
    await bank.close();
  });

  it('a bank on https may send the payer to any https page, never to a plain-http one', () => {
    const client = bgClient('https://xs2a.bank.example/psd2');
    assert.equal(client.resolveBrowserLink('registerPayment', 'https://idp.bank.example/sca?t=1'), 'https://idp.bank.example/sca?t=1');
    assert.equal(client.resolveBrowserLink('registerPayment', '/sca/p-1'), 'https://xs2a.bank.example/sca/p-1');
    assert.throws(() => client.resolveBrowserLink('registerPayment', 'http://xs2a.bank.example/sca/p-1'), isInsecure);
    assert.throws(() => client.resolveBrowserLink('registerPayment', 'http://127.0.0.1:8080/sca'), isInsecure);
    assert.throws(() => client.resolveBrowserLink('registerPayment', 'javascript:alert(1)'), isInsecure);
  });

  it('a bank on https cannot make us call plain http, even on its own host', async () => {
    const client = bgClient('https://xs2a.bank.example/psd2');
    // Another origin is refused as such; the same host on http is another origin too.
    assert.throws(() => client.resolveApiLink('getPaymentStatus', 'http://xs2a.bank.example/psd2/v1/payments/x/status'), BankProtocolError);
    await assert.rejects(
      client.send({ operation: 'getPaymentStatus', method: 'GET', url: new URL('http://bank.invalid/v1/x'), context }),
      isInsecure,
    );
  });

  it('a sandbox bank on plain http (this machine) may link to its own origin and this machine only', async () => {
    bank.handle(() => ({
      status: 201,
      headers: { 'ASPSP-SCA-Approach': 'REDIRECT' },
      body: {
        transactionStatus: 'RCVD',
        paymentId: 'p-1',
        _links: { scaRedirect: { href: `${bank.origin}/sca/p-1` }, status: { href: '/xs2a/v1/payments/sepa-credit-transfers/p-1/status' } },
      },
    }));
    const connector = createConnector(settings(`${bank.origin}/xs2a`));
    const registered = await connector.registerPayment({
      idempotencyKey: 'k-1',
      context,
      payment: order(),
      returnAddress: returnTo('https://pis.example/cb', 'https://pis.example/nok'),
      psuId: 'alice',
    });
    assert.deepEqual(registered.next, { kind: 'redirect', url: `${bank.origin}/sca/p-1` });
    assert.equal(bgClient(`${bank.origin}/xs2a`).resolveBrowserLink('op', 'http://localhost:9/sca'), 'http://localhost:9/sca');
  });

  it('a scaRedirect to plain http on another host is a protocol error, and the payer is not sent there', async () => {
    bank.handle(() => ({
      status: 201,
      headers: { 'ASPSP-SCA-Approach': 'REDIRECT' },
      body: { transactionStatus: 'RCVD', paymentId: 'p-2', _links: { scaRedirect: { href: 'http://phish.example/sca/p-2' } } },
    }));
    const connector = createConnector(settings(`${bank.origin}/xs2a`));
    await assert.rejects(
      connector.registerPayment({
        idempotencyKey: 'k-2',
        context,
        payment: order(),
        returnAddress: returnTo('https://pis.example/cb', 'https://pis.example/nok'),
        psuId: 'alice',
      }),
      isInsecure,
    );
  });
});

function order() {
  return {
    endToEndId: 'E2E-1',
    amount: '1.00',
    currency: 'EUR',
    scheme: 'SEPA' as const,
    instantPreferred: false,
    creditor: { iban: 'DE89370400440532013000', name: 'Merchant GmbH' },
    remittanceInformation: 'Order 1',
  };
}

describe('UK Open Banking: discovery endpoints and calls', () => {
  let bank: FakeBank;
  let discovery: Record<string, unknown> = {};
  before(async () => {
    bank = await startFakeBank();
    bank.handle((request) =>
      request.url.endsWith('/.well-known/openid-configuration')
        ? { status: 200, body: discovery }
        : request.url.endsWith('/jwks')
          ? { status: 200, body: { keys: [] } }
          : { status: 404 },
    );
  });
  after(async () => {
    await bank.close();
  });

  const issuer = (): string => `${bank.origin}/uk/test`;
  const client = (): HttpCore => new HttpCore({ dispatcher: getGlobalDispatcher(), timeoutMs: 2_000, bank: new URL(issuer()) });
  function document(changes: Record<string, unknown>): Record<string, unknown> {
    return {
      issuer: issuer(),
      token_endpoint: `${issuer()}/token`,
      jwks_uri: `${issuer()}/jwks`,
      authorization_endpoint: `${issuer()}/authorize`,
      backchannel_authentication_endpoint: `${issuer()}/bc-authorize`,
      ...changes,
    };
  }

  it('a sandbox bank on this machine may publish http endpoints on its own origin', async () => {
    forgetBankMetadata();
    discovery = document({});
    const metadata = await bankMetadata(client(), issuer());
    assert.equal(metadata.tokenEndpoint, `${issuer()}/token`);
  });

  for (const name of ['token_endpoint', 'authorization_endpoint', 'backchannel_authentication_endpoint', 'jwks_uri']) {
    it(`a discovery document naming a plain-http ${name} on another host is refused`, async () => {
      forgetBankMetadata();
      discovery = document({ [name]: `http://bank.invalid/${name}` });
      await assert.rejects(bankMetadata(client(), issuer()), isInsecure);
    });
  }

  it('a bank on https is never called over plain http', async () => {
    const secureBank = new HttpCore({ dispatcher: getGlobalDispatcher(), timeoutMs: 2_000, bank: new URL('https://as.bank.example') });
    await assert.rejects(
      secureBank.send({
        operation: 'discovery',
        method: 'GET',
        url: new URL('http://bank.invalid/.well-known/openid-configuration'),
        headers: {},
      }),
      isInsecure,
    );
  });
});

describe('the catalogue: bank addresses', () => {
  const builtIn = (): { providers: Array<Record<string, unknown>> } =>
    JSON.parse(readFileSync(new URL('../../src/providers/sandbox-catalogue.json', import.meta.url), 'utf8')) as {
      providers: Array<Record<string, unknown>>;
    };

  function withConnector(
    name: string,
    change: (connector: Record<string, unknown>) => void,
  ): { providers: Array<Record<string, unknown>> } {
    const catalogue = builtIn();
    const provider = catalogue.providers.find((entry) => entry['name'] === name);
    assert.ok(provider, name);
    const connector = provider['connector'] as Record<string, unknown>;
    change(connector);
    provider['environment'] = 'production';
    return catalogue;
  }

  it('a Berlin Group bank on plain http to another machine stops the load, naming the bank', () => {
    const catalogue = withConnector('Banca Sandbox Italia', (connector) => {
      connector['baseUrl'] = 'http://xs2a.bank.example/psd2';
    });
    assert.throws(
      () => parseCatalogue(catalogue, 'http://127.0.0.1:1/sandbox-bank'),
      /Banca Sandbox Italia[\s\S]*http:\/\/xs2a\.bank\.example is not https/,
    );
  });

  it('a UK bank whose issuer or resource base is plain http stops the load', () => {
    const issuer = withConnector('Albion Bank Sandbox', (connector) => {
      connector['issuer'] = 'http://as.bank.example';
    });
    assert.throws(() => parseCatalogue(issuer, 'http://127.0.0.1:1/sandbox-bank'), /is not https/);
    const resources = withConnector('Albion Bank Sandbox', (connector) => {
      connector['resourceBaseUrl'] = 'http://api.bank.example/open-banking/v4.0/pisp';
    });
    assert.throws(() => parseCatalogue(resources, 'http://127.0.0.1:1/sandbox-bank'), /is not https/);
  });

  it("https banks, banks on this machine and the operator's own sandbox bank (any SANDBOX_BANK_URL) load", () => {
    const secure = withConnector('Banca Sandbox Italia', (connector) => {
      connector['baseUrl'] = 'https://xs2a.bank.example/psd2';
    });
    assert.doesNotThrow(() => parseCatalogue(secure, 'http://127.0.0.1:1/sandbox-bank'));
    const local = withConnector('Banca Sandbox Italia', (connector) => {
      connector['baseUrl'] = 'http://localhost:8443/psd2';
    });
    assert.doesNotThrow(() => parseCatalogue(local, 'http://127.0.0.1:1/sandbox-bank'));
    // A trial on a plain-http BASE_URL with sandbox clients only (the service's own check allows it).
    assert.doesNotThrow(() => parseCatalogue(builtIn(), 'http://pis.lan:3000/sandbox-bank'));
  });
});
