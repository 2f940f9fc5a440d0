/**
 * undici, loaded on first use. It takes about 90 ms to load on a small machine, and the extension
 * builds its first client only after activate() has returned (credentials are read asynchronously),
 * so loading it eagerly would add that time to VS Code's activation of Scrapedeck for nothing.
 */
import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

export function undici(): typeof Undici {
  // A plain require: esbuild keeps it lazy in the bundle, and it stays synchronous for callers.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('undici') as typeof Undici;
  return loaded;
}
