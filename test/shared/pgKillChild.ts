/** The child process of `pgKill.ts` in the unit tier. */
import { isPgKillChild } from './pgKill';

if (!isPgKillChild()) throw new Error('run by pgKill.ts only');
