// The fault matrix (fault-matrix/matrix.ts) of one flow: Berlin Group embedded with a one-time code (Banca Italia, bob), on SQLite.
import { describeFaultMatrix } from './matrix.js';

await describeFaultMatrix('italia', 'sqlite');
