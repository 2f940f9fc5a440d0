/**
 * Imported first by the page: zod compiles fast parsers with `new Function`, and probes for it
 * when a schema is built. The CSP forbids eval (and reports even the swallowed probe), so turn
 * the compiler off before any schema module is evaluated.
 */
import { config } from 'zod';

config({ jitless: true });
