import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { generateOpenApiDocument } from '../scripts/openapi-document.js';

it('the committed openapi.json is the one the route schemas generate (run `npm run openapi` after changing a route)', async () => {
  const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8');
  const generated = await generateOpenApiDocument();
  assert.equal(committed, generated);
  const document = JSON.parse(generated) as { openapi: string; components: { securitySchemes: Record<string, unknown> } };
  assert.equal(document.openapi, '3.1.0');
  assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['basicAuth', 'bearerAuth']);
});
