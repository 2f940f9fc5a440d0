/**
 * Imported first by main.ts. zod decides whether it may compile parsers with `new Function`
 * by reading `navigator` when the first schema is built, and VS Code's extension host answers
 * that read by logging a PendingMigrationError on every activation. Parsing without the compiler
 * costs about 0.2 ms more per 100-record page, so turn it off before any schema module runs.
 */
import { config } from 'zod';

config({ jitless: true });
