import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { generateOpenApiDocument } from '../scripts/openapi-document.js';

it('the committed openapi.json is the one the route schemas generate (run `npm run openapi` after changing a route)', async () => {
  const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8');
  const generated = await generateOpenApiDocument();
  assert.equal(committed, generated);
  const document = JSON.parse(generated) as {
    openapi: string;
    components: {
      securitySchemes: Record<string, { description?: string }>;
      schemas: Record<string, { properties?: Record<string, unknown> }>;
    };
    paths: Record<string, Record<string, { security?: unknown; requestBody?: { content: Record<string, { schema: unknown }> } }>>;
  };
  assert.equal(document.openapi, '3.1.0');
  assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['basicAuth', 'bearerAuth']);
  // The token endpoint takes HTTP Basic or the credentials in its form body (client_secret_post), and says so.
  assert.match(document.components.securitySchemes.basicAuth?.description ?? '', /client_secret_post/);
  const token = document.paths['/api/v1/auth/token']?.post;
  assert.deepEqual(token?.security, [{ basicAuth: [] }, {}]);
  assert.match(JSON.stringify(token?.requestBody), /TokenRequest/);
  assert.ok(document.components.schemas.TokenRequest?.properties?.client_secret);
});
