// The fault matrix (fault-matrix/matrix.ts) of one flow: UK Open Banking redirect (Albion, alice), on SQLite.
import { describeFaultMatrix } from './matrix.js';

await describeFaultMatrix('albion', 'sqlite');
