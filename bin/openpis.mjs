#!/usr/bin/env node
// The operator CLI. The service runs from its TypeScript sources through tsx (see docs/adr/0001).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
