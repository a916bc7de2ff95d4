/** `npm run standards:schemas`: regenerates src/bank-onboarding/standard-schemas.json from the standards' files. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateStandardSchemas } from './standard-schemas.js';

const standards = fileURLToPath(new URL('../../shared/standards', import.meta.url));
const schemas = generateStandardSchemas(process.argv[2] ?? standards);
writeFileSync(new URL('../src/bank-onboarding/standard-schemas.json', import.meta.url), `${JSON.stringify(schemas)}\n`);
process.stdout.write('src/bank-onboarding/standard-schemas.json written\n');
