/**
 * The SSRF guard. Nothing here may send traffic to a non-loopback address: every test that gets past the policy uses a
 * fake socket connector that records what it was asked to connect to and fails without touching the network.
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { describe, it } from 'node:test';
import type { buildConnector } from 'undici';
import { deliverWebhook } from '../../src/webhooks/deliver.js';
import { generateWebhookSecret } from '../../src/webhooks/signature.js';
import {
  checkWebhookUrl,
  createGuardedConnector,
  createWebhookDispatcher,
  nonPublicAddressKind,
  resolveAllowedAddresses,
  type HostLookup,
  type WebhookDispatcherOptions,
} from '../../src/webhooks/ssrf-guard.js';

interface FakeConnector {
  readonly connector: buildConnector.connector;
  readonly calls: buildConnector.Options[];
}

/** Records the connect call and fails it, as an unreachable host would. */
function fakeConnector(): FakeConnector {
  const calls: buildConnector.Options[] = [];
  return {
    calls,
    connector: (options, callback) => {
      calls.push(options);
      const error = Object.assign(new Error(`fake connect to ${options.hostname} refused`), { code: 'ECONNREFUSED' });
      queueMicrotask(() => callback(error, null));
    },
  };
}

const fixedLookup =
  (...addresses: string[]): HostLookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

/** Runs the connector as undici would for `url` and reports the error it called back with. */
function connectVia(url: string, options: WebhookDispatcherOptions): Promise<Error | null> {
  const parsed = new URL(url);
  const hostname = parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname;
  const connect = createGuardedConnector(options);
  return new Promise((resolve) =>
    connect({ hostname, host: parsed.host, protocol: parsed.protocol, port: parsed.port || '443' }, (error, socket) => {
      socket?.destroy();
      resolve(error);
    }),
  );
}

const refusedLiterals: readonly (readonly [string, string])[] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['::1', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['100.64.0.1', 'shared address space'],
  ['100.127.255.254', 'shared address space'],
  ['169.254.0.1', 'link-local'],
  ['169.254.169.254', 'link-local'],
  ['fe80::1', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fc00::1', 'unique-local'],
  ['fd12:3456:789a::1', 'unique-local'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['2001:0:4136:e378::1', 'reserved'],
  ['2002:7f00:1::1', 'reserved'],
  ['100::1', 'reserved'],
  ['fec0::1', 'reserved'],
  ['::7f00:1', 'reserved'],
  ['4000::1', 'reserved'],
  // IPv4-mapped and NAT64 forms are judged by the IPv4 address inside.
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:10.1.2.3', 'private'],
  ['::ffff:192.168.1.1', 'private'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:100.64.0.1', 'shared address space'],
  ['64:ff9b::a00:1', 'private'],
  ['64:ff9b::127.0.0.1', 'loopback'],
];

const publicAddresses = [
  '8.8.8.8',
  '11.0.0.1',
  '172.15.255.255',
  '172.32.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '192.167.255.255',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001::1',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
];

describe('address classification', () => {
  for (const [address, kind] of refusedLiterals) {
    it(`${address} is ${kind}`, () => assert.equal(nonPublicAddressKind(address), kind));
  }
  it('public unicast addresses pass, including range boundaries', () => {
    for (const address of publicAddresses) assert.equal(nonPublicAddressKind(address), undefined, address);
  });
  it('anything that is not an IP address is invalid', () => {
    assert.equal(nonPublicAddressKind('example.com'), 'invalid');
    assert.equal(nonPublicAddressKind('not-an-ip'), 'invalid');
    assert.equal(nonPublicAddressKind('fe80::1%eth0'), 'link-local', 'a zone id does not hide the range');
  });
});

describe('guarded connector: literal IPs are refused before any connection', () => {
  for (const [address] of refusedLiterals) {
    it(`refuses https://${address}`, async () => {
      const fake = fakeConnector();
      const host = address.includes(':') ? `[${address}]` : address;
      const error = await connectVia(`https://${host}/hook`, { connector: fake.connector });
      assert.equal(fake.calls.length, 0, 'never connected');
      assert.equal((error as { code?: string } | null)?.code, 'ERR_WEBHOOK_TARGET_REFUSED');
      assert.match(error?.message ?? '', /^target address \S+ is not allowed \(/);
    });
  }

  it('normalises the other spellings of IPv4 that URLs allow (they reach the same address)', async () => {
    for (const url of ['https://2130706433/', 'https://127.1/', 'https://0x7f.0.0.1/', 'https://0177.0.0.1/']) {
      const fake = fakeConnector();
      const dispatcher = createWebhookDispatcher({ connector: fake.connector });
      const result = await deliverWebhook({
        url,
        eventId: 'evt_1',
        body: '{}',
        secrets: [generateWebhookSecret()],
        now: new Date(),
        dispatcher,
      });
      await dispatcher.close();
      assert.equal(result.outcome, 'refused', url);
      assert.equal(result.error, 'target address 127.0.0.1 is not allowed (loopback)');
      assert.equal(fake.calls.length, 0);
    }
  });

  it('connects a public literal address to exactly that address', async () => {
    const fake = fakeConnector();
    const error = await connectVia('https://[2606:4700:4700::1111]/hook', { connector: fake.connector });
    assert.equal(error?.message, 'fake connect to 2606:4700:4700::1111 refused');
    assert.equal(fake.calls.length, 1);
    assert.equal(fake.calls[0]?.hostname, '2606:4700:4700::1111');
  });
});

describe('guarded connector: host names', () => {
  it('refuses localhost, which resolves to loopback (real resolver)', async () => {
    const fake = fakeConnector();
    const error = await connectVia('https://localhost/hook', { connector: fake.connector });
    assert.match(error?.message ?? '', /^target address (127\.0\.0\.1|::1) is not allowed \(loopback\)$/);
    assert.equal(fake.calls.length, 0);
  });

  it('refuses a name that resolves to a private address', async () => {
    const fake = fakeConnector();
    const error = await connectVia('https://intranet.example.com/hook', {
      connector: fake.connector,
      lookup: fixedLookup('10.20.30.40'),
    });
    assert.equal(error?.message, 'target address 10.20.30.40 is not allowed (private)');
    assert.equal(fake.calls.length, 0);
  });

  it('refuses a name with one public and one private address, so fallback cannot land on the private one', async () => {
    const fake = fakeConnector();
    const error = await connectVia('https://mixed.example.com/hook', {
      connector: fake.connector,
      lookup: fixedLookup('93.184.216.34', '::ffff:192.168.0.10'),
    });
    assert.match(error?.message ?? '', /^target address ::ffff:192\.168\.0\.10 is not allowed/);
    assert.equal(fake.calls.length, 0);
  });

  it('refuses metadata host names whatever they resolve to, even with private targets allowed', async () => {
    for (const host of ['metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'metadata.goog', 'instance-data']) {
      const fake = fakeConnector();
      const error = await connectVia(`https://${host}/computeMetadata/v1/`, {
        connector: fake.connector,
        allowPrivateTargets: true,
        lookup: fixedLookup('93.184.216.34'),
      });
      assert.match(error?.message ?? '', /^target host [a-z.-]+ is not allowed$/);
      assert.equal(fake.calls.length, 0, host);
    }
  });

  it('refuses metadata addresses even with private targets allowed', async () => {
    for (const address of ['169.254.169.254', '::ffff:169.254.169.254', 'fd00:ec2::254', '100.100.100.200']) {
      const fake = fakeConnector();
      const error = await connectVia('https://innocent.example.com/', {
        connector: fake.connector,
        allowPrivateTargets: true,
        lookup: fixedLookup(address),
      });
      assert.equal(error?.message, `target address ${address} is not allowed (cloud metadata)`);
      assert.equal(fake.calls.length, 0);
    }
  });

  it('connects to the resolved public address, sending the host name for SNI and certificate checks', async () => {
    const fake = fakeConnector();
    await connectVia('https://hooks.example.com/hook', {
      connector: fake.connector,
      lookup: fixedLookup('93.184.216.34', '2606:2800:220:1::1'),
    });
    assert.deepEqual(
      fake.calls.map((call) => [call.hostname, call.servername]),
      [
        ['93.184.216.34', 'hooks.example.com'],
        ['2606:2800:220:1::1', 'hooks.example.com'],
      ],
      'tries each checked address in resolver order, and only those',
    );
  });

  it('refuses when the peer the socket reached is not allowed (defence in depth)', async () => {
    let destroyed = false;
    const socket = { remoteAddress: '127.0.0.1', destroy: () => (destroyed = true) } as unknown as Socket;
    const error = await connectVia('https://hooks.example.com/hook', {
      connector: (_options, callback) => callback(null, socket),
      lookup: fixedLookup('93.184.216.34'),
    });
    assert.equal(error?.message, 'target address 127.0.0.1 is not allowed (loopback)');
    assert.ok(destroyed);
  });

  it('lets private addresses through when the operator allows private targets', async () => {
    const fake = fakeConnector();
    await connectVia('https://dev-box.internal/hook', {
      connector: fake.connector,
      allowPrivateTargets: true,
      lookup: fixedLookup('10.0.0.5'),
    });
    assert.equal(fake.calls[0]?.hostname, '10.0.0.5');
  });
});

describe('DNS rebinding', () => {
  it('a name that was public when checked but private at connect time is refused at connect time', async () => {
    let lookups = 0;
    const rebinding: HostLookup = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const url = 'https://rebind.example.com/hook';
    assert.equal(await checkWebhookUrl(url, { lookup: rebinding }), undefined, 'looks fine when checked up front');

    const fake = fakeConnector();
    const dispatcher = createWebhookDispatcher({ lookup: rebinding, connector: fake.connector });
    try {
      const result = await deliverWebhook({
        url,
        eventId: 'evt_1',
        body: '{}',
        secrets: [generateWebhookSecret()],
        now: new Date(),
        dispatcher,
      });
      assert.equal(result.outcome, 'refused');
      assert.equal(result.error, 'target address 127.0.0.1 is not allowed (loopback)');
      assert.equal(lookups, 2, 'resolved again when connecting');
      assert.equal(fake.calls.length, 0, 'never connected, not even to the public address');
    } finally {
      await dispatcher.close();
    }
  });
});

describe('scheme rule', () => {
  it('refuses plain http to a public address', async () => {
    await assert.rejects(
      resolveAllowedAddresses('http:', 'hooks.example.com', { lookup: fixedLookup('93.184.216.34') }),
      /plain http is not allowed/,
    );
  });
  it('refuses plain http to a private, non-loopback address even in development', async () => {
    await assert.rejects(resolveAllowedAddresses('http:', '10.0.0.5', { allowPrivateTargets: true }), /plain http is not allowed/);
  });
  it('allows plain http to loopback in development only', async () => {
    assert.deepEqual(await resolveAllowedAddresses('http:', '127.0.0.1', { allowPrivateTargets: true }), ['127.0.0.1']);
    await assert.rejects(resolveAllowedAddresses('http:', '127.0.0.1'), /is not allowed/);
  });
  it('refuses other schemes', async () => {
    await assert.rejects(resolveAllowedAddresses('ftp:', 'hooks.example.com'), /scheme ftp: is not allowed/);
  });
});

describe('checkWebhookUrl', () => {
  it('returns a reason for refused URLs and undefined for acceptable ones', async () => {
    const lookup = fixedLookup('93.184.216.34');
    assert.equal(await checkWebhookUrl('https://hooks.example.com/x', { lookup }), undefined);
    assert.equal(await checkWebhookUrl('https://127.0.0.1/x'), 'target address 127.0.0.1 is not allowed (loopback)');
    assert.equal(await checkWebhookUrl('https://a:b@hooks.example.com/', { lookup }), 'webhook URL must not carry credentials');
    assert.equal(await checkWebhookUrl('nope'), 'webhook URL is not a valid absolute URL');
  });
  it('leaves DNS failures to the caller', async () => {
    const failing: HostLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await assert.rejects(checkWebhookUrl('https://missing.example.com/', { lookup: failing }), /ENOTFOUND/);
  });
});
