/** Scratch folders for tests that write files. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** A new empty folder under the system's temporary folder, its name starting with `prefix`. */
export const scratchFolder = (prefix: string): string => mkdtempSync(path.join(tmpdir(), prefix));
