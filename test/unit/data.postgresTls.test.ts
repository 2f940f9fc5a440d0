/**
 * The connection's TLS modes against a real server that takes only TLS connections (its own
 * private server, started with a self-signed certificate openssl made in its temporary folder,
 * scripts/lib/postgres.mjs `tls`): `require` connects encrypted (the certificate not checked),
 * `disable` is refused with the "TLS required" sentence, `verify-full` refuses the self-signed
 * certificate with its own sentence.
 */
import * as assert from 'node:assert/strict';

import {
  connect,
  failureKind,
  type PgConnection,
  probeConnection,
  type TlsMode,
} from '../../src/data/postgres/pgConnection';
import { pgFailureText } from '../../src/data/postgres/pgFailureText';
import { english } from '../../src/platform/errorText';
import { importScriptLib } from './helpers/scriptLib';

interface PgLib {
  startPostgres(o: {
    ownSignals: boolean;
    tls: boolean;
  }): Promise<{ env: Record<string, string>; stop(): Promise<void> }>;
}

describe('data: PostgreSQL TLS modes against a server that takes only TLS', function () {
  this.timeout(120_000);
  let server: { env: Record<string, string>; stop(): Promise<void> } | undefined;
  let base: Omit<PgConnection, 'tls'>;
  let password = '';

  before(async () => {
    const lib = await importScriptLib<PgLib>('postgres.mjs');
    server = await lib.startPostgres({ ownSignals: false, tls: true });
    const url = new URL(server.env.SCRAPEDECK_PG_URL ?? '');
    base = {
      host: url.hostname,
      port: Number(url.port),
      database: url.pathname.slice(1),
      user: decodeURIComponent(url.username),
      schema: 'public',
    };
    password = decodeURIComponent(url.password);
  });

  after(async () => {
    await server?.stop();
  });

  const reason = async (tls: TlsMode): Promise<unknown> =>
    probeConnection({ ...base, tls }, password).then(
      () => undefined,
      (error: unknown) => error,
    );

  it('require: connects, encrypted (the server says so), and may create its tables', async () => {
    assert.equal(await reason('require'), undefined);
    const client = await connect({ ...base, tls: 'require' }, password);
    try {
      const row = (await client.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()'))
        .rows[0];
      assert.equal(row?.ssl, true);
    } finally {
      await client.end();
    }
  });

  it('disable: refused, and the sentence says the server accepts only encrypted connections', async () => {
    const error = await reason('disable');
    assert.equal(failureKind(error), 'tls-required');
    assert.equal(
      pgFailureText(error, { host: base.host, schema: base.schema, user: base.user }, english),
      'The server accepts only encrypted connections: set the connection’s TLS mode to require or verify-full.',
    );
  });

  it('verify-full: the self-signed certificate is refused, with its own sentence', async () => {
    const error = await reason('verify-full');
    assert.equal(failureKind(error), 'tls-unverified');
    assert.match(
      pgFailureText(error, { host: base.host, schema: base.schema, user: base.user }, english),
      /certificate could not be verified/,
    );
  });
});
