// A private PostgreSQL server for the tests and the bench: Debian's postgresql (installed by
// scripts/install-postgres.sh when missing), a cluster made by initdb in a temporary folder,
// listening on a free port of 127.0.0.1 only (and a socket in that folder, no other), run by the
// `postgres` system user when this process is root (PostgreSQL refuses to run as root), with a
// superuser and a test role, each with a password of its own, and a test database. Stopped and
// its folder removed by stop(), on Ctrl-C, and at exit.
//
// Its connection details reach the tests through the environment (PG_ENV): the unit tier's
// global fixture (test/unit/helpers/postgresFixture.ts) and scripts/test-vscode.mjs start one
// and pass them on; a test that needs PostgreSQL and finds none fails (test/shared/pgServer.ts).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, mustRun, onShutdown, run } from './proc.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The environment variables the tests read the server from. */
export const PG_ENV = {
  /** postgres://scrapedeck:…@127.0.0.1:port/scrapedeck_test: the test role, owner of the test database. */
  url: 'SCRAPEDECK_PG_URL',
  /** The cluster's superuser (for tests that make a role without rights, or read the catalog). */
  adminUrl: 'SCRAPEDECK_PG_ADMIN_URL',
  /** The cluster's data folder (restartPostgres). */
  dataDir: 'SCRAPEDECK_PG_DATA',
  /** Why no server could be started here (the tests that need one fail with it). */
  missing: 'SCRAPEDECK_PG_MISSING',
};

const SERVER_USER = 'postgres';

/** The newest installed PostgreSQL's programs. */
export function postgresBin() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const found = versions.map((v) => path.join(root, v, 'bin')).find((dir) => existsSync(path.join(dir, 'initdb')));
  if (!found) throw new Error('PostgreSQL is not installed (scripts/install-postgres.sh installs it)');
  return found;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** [cmd, args] running `program` as the server's user (root: through runuser). */
function asServerUser(program, args) {
  return isRoot() ? ['runuser', ['-u', SERVER_USER, '--', program, ...args]] : [program, args];
}

function serverUserIds() {
  const uid = Number(execFileSync('id', ['-u', SERVER_USER], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', SERVER_USER], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

function pgCtlSync(bin, args) {
  const [cmd, argv] = asServerUser(path.join(bin, 'pg_ctl'), args);
  execFileSync(cmd, argv, { stdio: 'ignore', timeout: 60_000 });
}

/** Installs PostgreSQL if needed (quick when present). */
export async function ensurePostgres() {
  await mustRun('bash', [path.join(HERE, '..', 'install-postgres.sh')]);
}

/**
 * Starts a private server. Resolves to { env, port, dataDir, stop() }: `env` holds PG_ENV's
 * variables for the processes that test against it (its URLs carry the passwords: never log them).
 * `tls` true: the server takes only TLS connections from 127.0.0.1 (`hostssl` in pg_hba.conf), with
 * a self-signed certificate openssl makes in its folder (the TLS modes' tests).
 * `ownSignals` false: for a process that is not a harness script (mocha's): a signal stops the
 * server and then has its usual effect, instead of going through proc.mjs's shutdown (which sets
 * the exit code).
 */
export async function startPostgres({ install = true, ownSignals = true, tls = false } = {}) {
  if (install) await ensurePostgres();
  const bin = postgresBin();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scrapedeck-pg-'));
  const dataDir = path.join(dir, 'data');
  let started = false;
  const stop = async () => {
    if (started) {
      started = false;
      try {
        pgCtlSync(bin, ['stop', '-D', dataDir, '-m', 'fast', '-w', '-t', '30']);
      } catch {
        try {
          pgCtlSync(bin, ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '10']);
        } catch {
          // gone already
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // Ctrl-C, and any exit before stop() (a failed run): the server does not outlive this process.
  const atExit = () => void stop();
  process.once('exit', atExit);
  if (ownSignals) onShutdown(stop);
  else {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.once(signal, () => {
        atExit();
        // Nobody else listens: the signal's default (the process ends), as without this listener.
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    }
  }
  try {
    if (isRoot()) {
      const { uid, gid } = serverUserIds();
      chownSync(dir, uid, gid);
    }
    const adminPassword = randomBytes(18).toString('base64url');
    const password = randomBytes(18).toString('base64url');
    const pwFile = path.join(dir, 'pw');
    writeFileSync(pwFile, `${adminPassword}\n`, { mode: 0o600 });
    if (isRoot()) chownSync(pwFile, serverUserIds().uid, serverUserIds().gid);
    const initdb = asServerUser(path.join(bin, 'initdb'), [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=scram-sha-256',
      `--pwfile=${pwFile}`,
      '-E',
      'UTF8',
      '--no-locale',
      '--no-sync',
    ]);
    const capture = [];
    if ((await run(initdb[0], initdb[1], { capture, quiet: true })) !== 0)
      throw new Error(`initdb failed: ${capture.join('').slice(-400)}`);
    rmSync(pwFile, { force: true });
    const port = await freePort();
    let options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=60`;
    if (tls) options += ` ${tlsOnly(dir, dataDir)}`;
    const ctl = asServerUser(path.join(bin, 'pg_ctl'), [
      'start',
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      options,
    ]);
    capture.length = 0;
    if ((await run(ctl[0], ctl[1], { capture, quiet: true })) !== 0)
      throw new Error(`the PostgreSQL server did not start: ${capture.join('').slice(-400)}`);
    started = true;
    const sql = [
      `CREATE ROLE scrapedeck LOGIN PASSWORD '${password}'`,
      'CREATE DATABASE scrapedeck_test OWNER scrapedeck',
    ];
    for (const statement of sql) {
      execFileSync(
        path.join(bin, 'psql'),
        [
          '-X',
          '-q',
          '-v',
          'ON_ERROR_STOP=1',
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'postgres',
          '-d',
          'postgres',
          '-c',
          statement,
        ],
        {
          env: { ...process.env, PGPASSWORD: adminPassword },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
    }
    const env = {
      [PG_ENV.url]: `postgres://scrapedeck:${password}@127.0.0.1:${port}/scrapedeck_test`,
      [PG_ENV.adminUrl]: `postgres://postgres:${adminPassword}@127.0.0.1:${port}/scrapedeck_test`,
      [PG_ENV.dataDir]: dataDir,
    };
    return {
      env,
      port,
      dataDir,
      stop: async () => {
        process.removeListener('exit', atExit);
        await stop();
      },
    };
  } catch (error) {
    process.removeListener('exit', atExit);
    await stop();
    throw error;
  }
}

/**
 * A self-signed certificate (openssl, in the server's folder, its key readable by the server only)
 * and a pg_hba.conf that takes TCP connections only over TLS; returns the server's options.
 */
function tlsOnly(dir, dataDir) {
  const crt = path.join(dir, 'server.crt');
  const key = path.join(dir, 'server.key');
  execFileSync(
    'openssl',
    [
      'req',
      '-new',
      '-x509',
      '-days',
      '2',
      '-nodes',
      '-newkey',
      'rsa:2048',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      key,
      '-out',
      crt,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  chmodSync(key, 0o600);
  const hba = path.join(dataDir, 'pg_hba.conf');
  writeFileSync(hba, ['local all all scram-sha-256', 'hostssl all all 127.0.0.1/32 scram-sha-256', ''].join('\n'));
  if (isRoot()) {
    const { uid, gid } = serverUserIds();
    for (const file of [crt, key, hba]) chownSync(file, uid, gid);
  }
  return `-c ssl=on -c ssl_cert_file=${crt} -c ssl_key_file=${key}`;
}

/** Restarts the server whose data folder is `dataDir` (fast: open connections are cut), waiting until it accepts connections again. */
export function restartPostgres(dataDir) {
  pgCtlSync(postgresBin(), ['restart', '-D', dataDir, '-m', 'fast', '-w', '-t', '60']);
}
