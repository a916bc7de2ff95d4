// The fault matrix (fault-matrix/matrix.ts) of one flow: Berlin Group redirect (Rheinland, alice), on PostgreSQL.
import { describeFaultMatrix } from './matrix.js';

await describeFaultMatrix('rheinland', 'postgres');
