/**
 * The tests' PostgreSQL server, as the runner started it (scripts/lib/postgres.mjs: the unit
 * tier's global fixture, scripts/test-vscode.mjs). A test that needs it and finds none FAILS
 * with the reason: never skipped.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

export interface TestServer {
  /** The test role (owner of the test database). */
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  /** The cluster's superuser, for making roles and reading what a pull wrote. */
  admin: { user: string; password: string };
  dataDir: string;
}

export function testServer(): TestServer {
  const url = process.env.SCRAPEDECK_PG_URL;
  const admin = process.env.SCRAPEDECK_PG_ADMIN_URL;
  const dataDir = process.env.SCRAPEDECK_PG_DATA;
  if (url === undefined || admin === undefined || dataDir === undefined) {
    throw new Error(
      `no PostgreSQL server for the tests: ${process.env.SCRAPEDECK_PG_MISSING ?? 'SCRAPEDECK_PG_URL is not set (the unit tier starts one: run it through .mocharc.unit.json)'}`,
    );
  }
  const u = new URL(url);
  const a = new URL(admin);
  return {
    host: u.hostname,
    port: Number(u.port),
    database: u.pathname.slice(1),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    admin: { user: decodeURIComponent(a.username), password: decodeURIComponent(a.password) },
    dataDir,
  };
}

/** Restarts the server (fast: every open connection is cut) and waits until it accepts connections again. */
export function restartServer(server: TestServer): void {
  const root = path.resolve(__dirname, '..', '..', '..');
  // The harness's ES module, run in a child: the same pg_ctl call the scripts make.
  const script = `import(${JSON.stringify(path.join(root, 'scripts', 'lib', 'postgres.mjs'))}).then((m) => m.restartPostgres(process.argv[1]))`;
  execFileSync(process.execPath, ['-e', script, server.dataDir], { stdio: 'inherit', timeout: 90_000 });
}
