/** The child process of `pullKill.ts` in the test tiers (the bench forks its own bundle instead). */
import { isKillChild } from './pullKill';

if (!isKillChild()) throw new Error('run by pullKill.ts only');
