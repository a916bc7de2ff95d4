// The fault matrix (fault-matrix/matrix.ts) of one flow: Berlin Group account information and account choice, then redirect (Nemunas, bob), on SQLite.
import { describeFaultMatrix } from './matrix.js';

await describeFaultMatrix('accounts', 'sqlite');
