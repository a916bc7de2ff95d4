// The fault matrix (fault-matrix/matrix.ts) of one flow: Berlin Group embedded, login first, no code (Hansa, dave), on PostgreSQL.
import { describeFaultMatrix } from './matrix.js';

await describeFaultMatrix('hansa', 'postgres');
