/**
 * The PostgreSQL connections of this VS Code user: their settings in the user's global state
 * (never a workspace's, never settings: a workspace can neither name nor change the server a pull
 * writes to), each password in SecretStorage under the connection's id. No `vscode`: the stores
 * are passed in (`context.globalState`, `context.secrets`).
 */
import { randomUUID } from 'node:crypto';

import * as z from 'zod';

import { type PgConnection, pgConnectionSchema } from './pgConnection';

export interface StateStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

const KEY = 'scrapedeck.postgres.connections';
const savedSchema = pgConnectionSchema.extend({ id: z.string().uuid() });
export type SavedConnection = z.infer<typeof savedSchema>;

const secretKey = (id: string): string => `scrapedeck.postgres.password.${id}`;

/** How a connection is named to the user: user@host:port/database, schema. */
export function connectionLabel(c: PgConnection): string {
  return `${c.user}@${c.host}:${c.port}/${c.database} (${c.schema})`;
}

export class PgConnectionStore {
  constructor(
    private readonly state: StateStore,
    private readonly secrets: SecretStore,
  ) {}

  /** Every valid saved connection (one that no longer parses is left out). */
  list(): SavedConnection[] {
    const raw = this.state.get(KEY);
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((item) => {
      const parsed = savedSchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  }

  find(id: string): SavedConnection | undefined {
    return this.list().find((c) => c.id === id);
  }

  async add(connection: PgConnection, password: string): Promise<SavedConnection> {
    const saved = { ...pgConnectionSchema.parse(connection), id: randomUUID() };
    // The password first: a connection listed without one would fail its first pull.
    await this.secrets.store(secretKey(saved.id), password);
    await this.state.update(KEY, [...this.list(), saved]);
    return saved;
  }

  async remove(id: string): Promise<void> {
    await this.state.update(
      KEY,
      this.list().filter((c) => c.id !== id),
    );
    await this.secrets.delete(secretKey(id));
  }

  password(id: string): PromiseLike<string | undefined> {
    return this.secrets.get(secretKey(id));
  }
}
