// Regenerates src/generated/openapi.ts from the service's committed OpenAPI document (../../openapi.json) with
// openapi-typescript. A test (test/sdk/generated-types.test.ts) regenerates in memory and compares, so the
// committed types never drift from the document. Usage: node scripts/generate-types.mjs [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateTypes } from './types-source.mjs';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(packageDir, 'src', 'generated', 'openapi.ts');
const document = JSON.parse(readFileSync(join(packageDir, '..', '..', 'openapi.json'), 'utf8'));
const source = await generateTypes(document);

if (process.argv.includes('--check')) {
  if (readFileSync(target, 'utf8') !== source) {
    process.stderr.write('src/generated/openapi.ts is out of date: run `npm run generate -w @openpis/sdk`\n');
    process.exit(1);
  }
} else {
  writeFileSync(target, source);
}
