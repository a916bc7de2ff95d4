/**
 * Where the UK sandbox banks are mounted: inside the service by default (beside the Berlin Group banks, under
 * `/sandbox-bank/uk`), and in the stand-alone sandbox app of `openpis sandbox-bank` (under `/uk`).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSandboxBankApp } from '@openpis/sandbox-bank';
import { testDatabaseKinds } from '../../helpers/databases.js';
import { startTestApp } from '../../helpers/test-app.js';
import { DEFAULT_AUTHENTICATION_ATTEMPTS } from '../../../src/providers/catalogue.js';
import { defaultCatalogue, PUBLIC_URL } from '../harness.js';

describe('UK sandbox mounting', () => {
  it('the stand-alone sandbox app serves the UK banks under /uk, with issuers under its public URL', async () => {
    const app = buildSandboxBankApp({
      catalogue: defaultCatalogue(),
      publicUrl: PUBLIC_URL,
      authenticationAttempts: DEFAULT_AUTHENTICATION_ATTEMPTS,
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/uk/albion/.well-known/openid-configuration' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.json<{ issuer: string }>().issuer, `${PUBLIC_URL}/uk/albion`);
      const bg = await app.inject({ method: 'GET', url: '/' });
      assert.equal(bg.statusCode, 200, 'the Berlin Group index is still there');
    } finally {
      await app.close();
    }
  });

  it('the service embeds them under /sandbox-bank/uk by default', async () => {
    const [kind] = await testDatabaseKinds();
    assert.ok(kind);
    const service = await startTestApp(kind);
    try {
      const response = await service.request('/sandbox-bank/uk/pennine/.well-known/openid-configuration');
      assert.equal(response.status, 200);
      const document = (await response.json()) as { issuer: string; backchannel_authentication_endpoint: string };
      assert.equal(document.issuer, `${service.config.sandboxBank.url}/uk/pennine`);
      assert.ok(document.backchannel_authentication_endpoint.startsWith(service.baseUrl));
    } finally {
      await service.close();
    }
  });
});
