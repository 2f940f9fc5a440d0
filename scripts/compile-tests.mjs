#!/usr/bin/env node
// `npm run compile-tests`: tsc -p tsconfig.json into out/, incremental, after checking that what
// tsc recorded still matches out/ (scripts/lib/project.mjs).
import { exitAfterOutput } from './lib/proc.mjs';
import { compileTests } from './lib/project.mjs';

compileTests().then(
  () => exitAfterOutput(0),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    exitAfterOutput(1);
  },
);
