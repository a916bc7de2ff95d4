// The operator CLI's commands on a database (database-commands.ts), on SQLite.
import { describeDatabaseCommands } from './database-commands.js';

await describeDatabaseCommands('sqlite');
