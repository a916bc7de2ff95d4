// openpis banks on SQLite (banks-commands.ts).
import { describeBankCommands } from './banks-commands.js';

await describeBankCommands('sqlite');
