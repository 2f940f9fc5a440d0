/**
 * Add PostgreSQL Connection…, Test Connection, Remove Connection: the user's connections
 * (`postgres/connectionStore.ts`), each added once by its fields, its password kept in
 * SecretStorage. Test Connection says in one sentence what failed; the server's own message goes
 * to the log only (it never holds the password).
 */
import * as vscode from 'vscode';

import type { Ui } from '../platform/ui';
import { connectionLabel, type PgConnectionStore, type SavedConnection } from './postgres/connectionStore';
import {
  type PgConnection,
  pgConnectionSchema,
  probeConnection,
  serverMessage,
  TLS_MODES,
  type TlsMode,
} from './postgres/pgConnection';
import { pgFailureText } from './postgres/pgFailureText';
import { refusedInRestrictedMode } from './postgres/restrictedMode';

const t = vscode.l10n.t;

export interface PgFlowDeps {
  store: PgConnectionStore;
  ui: Ui;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
}

const required = (what: string) => (value: string) => (value.trim() === '' ? t('Type the {0}.', what) : undefined);

async function ask(
  ui: Ui,
  title: string,
  prompt: string,
  value: string,
  validate: (v: string) => string | undefined,
  password = false,
): Promise<string | undefined> {
  return ui.showInputBox({ title, prompt, value, ignoreFocusOut: true, password, validateInput: validate });
}

/** Asks for each field, then the password; tests the connection before saving it. */
export async function addConnection(deps: PgFlowDeps): Promise<SavedConnection | undefined> {
  const { ui } = deps;
  if (refusedInRestrictedMode(ui)) return undefined;
  const title = t('Add PostgreSQL Connection');
  const host = await ask(
    ui,
    title,
    t('Host name or address of the PostgreSQL server'),
    'localhost',
    required(t('host')),
  );
  if (host === undefined) return undefined;
  const portText = await ask(ui, title, t('Port'), '5432', (v) =>
    /^\d{1,5}$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= 65535
      ? undefined
      : t('A port is a number from 1 to 65535.'),
  );
  if (portText === undefined) return undefined;
  const database = await ask(ui, title, t('Database'), 'postgres', required(t('database')));
  if (database === undefined) return undefined;
  const user = await ask(ui, title, t('User'), '', required(t('user')));
  if (user === undefined) return undefined;
  const schema = await ask(ui, title, t('Schema the tables go in'), 'public', required(t('schema')));
  if (schema === undefined) return undefined;
  const modes: Record<TlsMode, string> = {
    'verify-full': t('verify-full: encrypted, the server’s certificate and name checked'),
    require: t('require: encrypted, the certificate not checked'),
    disable: t('disable: not encrypted (a server on this machine or a trusted network)'),
  };
  const tls = await ui.showQuickPick(
    TLS_MODES.map((mode) => ({ label: modes[mode], mode })),
    { title, placeHolder: t('TLS mode') },
  );
  if (tls === undefined) return undefined;
  const password = await ask(
    ui,
    title,
    t('Password of {0} (kept in VS Code’s secret storage)', user.trim()),
    '',
    () => undefined,
    true,
  );
  if (password === undefined) return undefined;
  const parsed = pgConnectionSchema.safeParse({
    host: host.trim(),
    port: Number(portText.trim()),
    database: database.trim(),
    user: user.trim(),
    schema: schema.trim(),
    tls: tls.mode,
  });
  if (!parsed.success) {
    void ui.showWarningMessage(t('The connection was not added: {0}.', parsed.error.issues[0]?.path.join('.') ?? ''));
    return undefined;
  }
  const problem = await test(parsed.data, password, deps);
  if (problem !== undefined) {
    const keep = t('Add Anyway');
    if ((await ui.showWarningMessage(t('{0} Add the connection anyway?', problem), keep)) !== keep) return undefined;
  }
  const saved = await deps.store.add(parsed.data, password);
  deps.log.info(`Added the PostgreSQL connection ${connectionLabel(saved)}`);
  void ui.showInformationMessage(
    t('Added the PostgreSQL connection {0}. Pull New Rows offers it as a destination.', connectionLabel(saved)),
  );
  return saved;
}

/** One sentence for what failed, or undefined when the connection works (and may create tables). */
async function test(c: PgConnection, password: string, deps: PgFlowDeps): Promise<string | undefined> {
  try {
    await probeConnection(c, password);
    return undefined;
  } catch (error) {
    deps.log.warn(`PostgreSQL connection ${connectionLabel(c)} failed its test: ${serverMessage(error)}`);
    return pgFailureText(error, c, t);
  }
}

async function pick(deps: PgFlowDeps, placeHolder: string): Promise<SavedConnection | undefined> {
  const all = deps.store.list();
  if (all.length === 0) {
    void deps.ui.showInformationMessage(
      t('No PostgreSQL connection has been added yet: use Add PostgreSQL Connection… first.'),
    );
    return undefined;
  }
  const chosen = await deps.ui.showQuickPick(
    all.map((c) => ({ label: connectionLabel(c), connection: c })),
    { placeHolder },
  );
  return chosen?.connection;
}

export async function testConnection(deps: PgFlowDeps): Promise<boolean | undefined> {
  if (refusedInRestrictedMode(deps.ui)) return undefined;
  const c = await pick(deps, t('The PostgreSQL connection to test'));
  if (c === undefined) return undefined;
  const password = await deps.store.password(c.id);
  const problem =
    password === undefined
      ? t('Its password is not in VS Code’s secret storage any more: remove the connection and add it again.')
      : await test(c, password, deps);
  if (problem === undefined)
    void deps.ui.showInformationMessage(
      t('{0} works: Scrapedeck can create its tables in the schema {1}.', connectionLabel(c), c.schema),
    );
  else void deps.ui.showErrorMessage(problem);
  return problem === undefined;
}

export async function removeConnection(deps: PgFlowDeps): Promise<boolean> {
  if (refusedInRestrictedMode(deps.ui)) return false;
  const c = await pick(deps, t('The PostgreSQL connection to remove'));
  if (c === undefined) return false;
  const remove = t('Remove');
  const choice = await deps.ui.showModalWarning(
    t('Remove the PostgreSQL connection {0}?', connectionLabel(c)),
    t('Its password is deleted from VS Code’s secret storage. The tables in the database are not touched.'),
    remove,
    t('Keep It'),
  );
  if (choice !== remove) return false;
  await deps.store.remove(c.id);
  deps.log.info(`Removed the PostgreSQL connection ${connectionLabel(c)}`);
  return true;
}
