import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import {
  generateWebhookSecret,
  InvalidWebhookSecretError,
  isWebhookSecret,
  signWebhook,
  webhookHeaders,
  webhookSecretKey,
} from '../../src/webhooks/signature.js';

describe('webhook secrets', () => {
  it('are whsec_ + base64 of 32 random bytes by default', () => {
    const secret = generateWebhookSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(webhookSecretKey(secret).length, 32);
    assert.notEqual(generateWebhookSecret(), secret);
  });

  it('can be 24–64 bytes, nothing else', () => {
    assert.equal(webhookSecretKey(generateWebhookSecret(24)).length, 24);
    assert.equal(webhookSecretKey(generateWebhookSecret(64)).length, 64);
    assert.throws(() => generateWebhookSecret(16), RangeError);
    assert.throws(() => generateWebhookSecret(65), RangeError);
  });

  it('are validated, without echoing the secret in the error', () => {
    const short = `whsec_${Buffer.alloc(16, 7).toString('base64')}`;
    for (const bad of ['', 'whsec_', 'abc', short, 'whsec_not base64!!', `secret_${Buffer.alloc(32).toString('base64')}`]) {
      assert.equal(isWebhookSecret(bad), false, bad);
      assert.throws(
        () => webhookSecretKey(bad),
        (error: unknown) => error instanceof InvalidWebhookSecretError && (bad.length < 7 || !error.message.includes(bad)),
      );
    }
    assert.equal(isWebhookSecret(generateWebhookSecret()), true);
  });
});

describe('signWebhook', () => {
  const body = '{"type":"payment.status.updated","data":{"note":"ünïcödé €"}}';
  const timestamp = 1_740_000_000;

  it('matches the Standard Webhooks reference library byte for byte', () => {
    const secret = generateWebhookSecret();
    const reference = new Webhook(secret).sign('msg_1', new Date(timestamp * 1000), body);
    assert.equal(signWebhook({ id: 'msg_1', timestamp, body, secrets: [secret] }), reference);
  });

  it('matches the published Standard Webhooks test vector', () => {
    // From the spec's reference implementations (standard-webhooks/libraries test suites).
    const signature = signWebhook({
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
      body: '{"test": 2432232314}',
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    });
    assert.equal(signature, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs once per distinct secret, space-separated', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    const header = signWebhook({ id: 'msg_1', timestamp, body, secrets: [a, b, a] });
    const parts = header.split(' ');
    assert.equal(parts.length, 2);
    assert.equal(parts[0], new Webhook(a).sign('msg_1', new Date(timestamp * 1000), body));
    assert.equal(parts[1], new Webhook(b).sign('msg_1', new Date(timestamp * 1000), body));
  });

  it('refuses to sign without a secret or with an id that cannot travel in a header', () => {
    assert.throws(() => signWebhook({ id: 'msg_1', timestamp, body, secrets: [] }), InvalidWebhookSecretError);
    assert.throws(() => signWebhook({ id: 'a b', timestamp, body, secrets: [generateWebhookSecret()] }), RangeError);
    assert.throws(() => signWebhook({ id: 'a\nb', timestamp, body, secrets: [generateWebhookSecret()] }), RangeError);
  });
});

describe('webhookHeaders', () => {
  it('produce headers the reference verifier accepts with either rotation secret', () => {
    const current = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const body = '{"hello":"world"}';
    const headers = webhookHeaders({ eventId: 'evt_42', body, secrets: [current, previous], now: new Date() });
    assert.equal(headers['webhook-id'], 'evt_42');
    assert.match(headers['webhook-timestamp'], /^\d{10}$/);
    assert.deepEqual(new Webhook(current).verify(body, { ...headers }), { hello: 'world' });
    assert.deepEqual(new Webhook(previous).verify(body, { ...headers }), { hello: 'world' });
    assert.throws(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers }));
    assert.throws(() => new Webhook(current).verify('{"hello":"World"}', { ...headers }), 'any change to the body fails');
  });

  it('carry the attempt time, which verifiers check for freshness', () => {
    const secret = generateWebhookSecret();
    const stale = webhookHeaders({ eventId: 'evt_1', body: '{}', secrets: [secret], now: new Date(Date.now() - 3_600_000) });
    assert.throws(() => new Webhook(secret).verify('{}', { ...stale }), /too old/);
  });
});
