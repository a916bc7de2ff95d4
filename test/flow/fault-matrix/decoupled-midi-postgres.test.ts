// The fault matrix (fault-matrix/matrix.ts) of one flow: Berlin Group decoupled (Crédit du Midi, alice), on PostgreSQL.
import { describeFaultMatrix } from './matrix.js';

await describeFaultMatrix('midi', 'postgres');
