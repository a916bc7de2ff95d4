// The operator CLI's commands on a database (database-commands.ts), on PostgreSQL.
import { describeDatabaseCommands } from './database-commands.js';

await describeDatabaseCommands('postgres');
