/**
 * The unit tier's global fixture (.mocharc.unit.json `require`): a private PostgreSQL server
 * (scripts/lib/postgres.mjs) for the whole run, started in mocha's main process before its
 * workers, which inherit its connection details through the environment. A runner that started
 * one already (its variables set) is reused. A server that cannot be started here does not stop
 * the other tests: the reason is passed on, and every test that needs PostgreSQL fails with it
 * (test/shared/pgServer.ts).
 */
import { importScriptLib } from './scriptLib';

interface PgLib {
  PG_ENV: { url: string; missing: string };
  startPostgres(o: { ownSignals: boolean }): Promise<{ env: Record<string, string>; stop(): Promise<void> }>;
}

let server: { stop(): Promise<void> } | undefined;

export async function mochaGlobalSetup(): Promise<void> {
  const lib = await importScriptLib<PgLib>('postgres.mjs');
  if (process.env[lib.PG_ENV.url] !== undefined) return;
  try {
    const started = await lib.startPostgres({ ownSignals: false });
    server = started;
    Object.assign(process.env, started.env);
  } catch (error) {
    process.env[lib.PG_ENV.missing] = error instanceof Error ? error.message : String(error);
  }
}

export async function mochaGlobalTeardown(): Promise<void> {
  await server?.stop();
  server = undefined;
}
