// openpis banks on PostgreSQL (banks-commands.ts).
import { describeBankCommands } from './banks-commands.js';

await describeBankCommands('postgres');
