// `npm run config:docs`: writes what the configuration schema (src/config/schema.ts) determines: the loader's plain
// copy of it (src/config/schema.generated.ts), .env.example and the README's configuration table.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeWithTable, renderEnvExample, renderGeneratedSchema } from './config-docs.js';

const root = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));

writeFileSync(root('src/config/schema.generated.ts'), renderGeneratedSchema());
writeFileSync(root('.env.example'), renderEnvExample());
writeFileSync(root('README.md'), readmeWithTable(readFileSync(root('README.md'), 'utf8')));
process.stdout.write("config:docs: wrote src/config/schema.generated.ts, .env.example and the README's configuration table\n");
