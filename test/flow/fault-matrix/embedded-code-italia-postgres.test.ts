// The fault matrix (fault-matrix/matrix.ts) of one flow: Berlin Group embedded with a one-time code (Banca Italia, bob), on PostgreSQL.
import { describeFaultMatrix } from './matrix.js';

await describeFaultMatrix('italia', 'postgres');
