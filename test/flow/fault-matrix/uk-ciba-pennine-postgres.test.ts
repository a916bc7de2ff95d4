// The fault matrix (fault-matrix/matrix.ts) of one flow: UK Open Banking CIBA (Pennine, alice), on PostgreSQL.
import { describeFaultMatrix } from './matrix.js';

await describeFaultMatrix('pennine', 'postgres');
