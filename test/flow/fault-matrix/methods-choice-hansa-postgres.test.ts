// The fault matrix (fault-matrix/matrix.ts) of one flow: Berlin Group SCA method choice and a one-time code (Hansa, carla), on PostgreSQL.
import { describeFaultMatrix } from './matrix.js';

await describeFaultMatrix('methods', 'postgres');
