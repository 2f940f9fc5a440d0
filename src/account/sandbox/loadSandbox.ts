/**
 * The embedded sandbox's code, loaded the first time "Try the Sandbox" needs it. The bundle maps
 * this require to dist/sandbox-server.js (esbuild.mjs), so activating Scrapedeck never reads or
 * compiles the sandbox; in tests it is the TypeScript module itself.
 */
import type * as SandboxServer from '../../sandbox/server';

let loaded: typeof SandboxServer | undefined;

export function sandboxServer(): typeof SandboxServer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('../../sandbox/server') as typeof SandboxServer;
  return loaded;
}
