/**
 * Imported first by the page: zod compiles fast parsers with `new Function`, and probes for it
 * when a schema is built. The CSP forbids eval (and reports even the swallowed probe), so turn
 * the compiler off before any schema module is evaluated. The page's schemas are zod/mini, which
 * (unlike full zod) loads no messages: English is set here, so issues read as the host's do.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config({ ...en(), jitless: true });
