/**
 * The page's side of request and reply, mirroring the host's router: each request gets an id
 * and a promise; the reply (or error) carrying that id settles it, progress under it is passed
 * on, and anything for an id nobody waits for any more (cancelled, replaced, never asked) is
 * stale and dropped. A request never rejects: it settles with an outcome.
 *
 * A fetch's rows come along with its progress, in order; they are kept under its id and joined with
 * the answer's own rows (`streamed` says how many came first). Rows that do not follow on (a message
 * lost or out of place) fail the answer with a clear error rather than show a result with a hole.
 */
import { pageText as t } from '../model/pageStrings';
import type { HostMessage, PageMessage, WireError } from '../protocol';
import { StreamedRows } from '../protocol/streamedRows';

type Reply<T extends HostMessage['type']> = Extract<HostMessage, { type: T }>;

/** What each request is answered with (besides an `error`). */
interface Answers {
  query: Reply<'queryResult'>;
  fetchAll: Reply<'fetchAllResult'>;
  pickTasks: Reply<'tasksPicked'>;
  export: Reply<'exportDone'>;
}
const ANSWER_TYPE: { [K in keyof Answers]: Answers[K]['type'] } = {
  query: 'queryResult',
  fetchAll: 'fetchAllResult',
  pickTasks: 'tasksPicked',
  export: 'exportDone',
};

type Ask<K extends keyof Answers> = Omit<Extract<PageMessage, { type: K }>, 'id'>;
export type Progress = Reply<'fetchAllProgress'>;

/**
 * ok: the answer. Otherwise the error: `byPage` when this page cancelled the request itself (its
 * caller already moved on), else the host's error ('cancelled' included: a dismissed dialog, or a
 * fetch the host stopped).
 */
export type Outcome<R> = { ok: true; reply: R } | { ok: false; error: WireError; byPage: boolean };

interface Pending {
  answer: HostMessage['type'];
  settle(outcome: Outcome<HostMessage>): void;
  progress: ((p: Progress) => void) | undefined;
  /** Rows that came with the progress so far. */
  streamed?: StreamedRows;
}

// l10n-exempt: never shown (whoever cancels has already moved on; see Outcome.byPage)
const CANCELLED: WireError = { kind: 'cancelled', message: 'Cancelled.' };

export class Requests {
  private readonly pending = new Map<string, Pending>();
  private seq = 0;

  constructor(private readonly post: (message: PageMessage) => void) {}

  /** Sends a request; `done` settles with its answer or error. */
  send<K extends keyof Answers>(
    ask: Ask<K> & { type: K },
    onProgress?: (p: Progress) => void,
  ): { id: string; done: Promise<Outcome<Answers[K]>> } {
    const id = this.nextId(ask.type);
    const done = new Promise<Outcome<Answers[K]>>((resolve) => {
      this.pending.set(id, {
        answer: ANSWER_TYPE[ask.type],
        settle: resolve as (o: Outcome<HostMessage>) => void,
        progress: onProgress,
      });
    });
    this.post({ ...ask, id } as PageMessage);
    return { id, done };
  }

  /** Tells the host to stop `id` and settles it at once as cancelled by the page. */
  cancel(id: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    this.post({ type: 'cancel', id });
    pending.settle({ ok: false, error: CANCELLED, byPage: true });
  }

  /**
   * The next answer under `id`, after its first one: the rest of a query the host goes on to fetch
   * (`query` with `rest`). Called as the first answer settles (before the next message can arrive).
   */
  expect<K extends keyof Answers>(
    id: string,
    kind: K,
    onProgress?: (p: Progress) => void,
  ): Promise<Outcome<Answers[K]>> {
    return new Promise<Outcome<Answers[K]>>((resolve) => {
      this.pending.set(id, {
        answer: ANSWER_TYPE[kind],
        settle: resolve as (o: Outcome<HostMessage>) => void,
        progress: onProgress,
      });
    });
  }

  isPending(id: string | undefined): boolean {
    return id !== undefined && this.pending.has(id);
  }

  /** Hands a reply to the request it answers; false when it answers nothing this page waits for. */
  settle(m: Extract<HostMessage, { id: string }>): boolean {
    const pending = this.pending.get(m.id);
    if (!pending) return false;
    if (m.type === 'fetchAllProgress') {
      const { records, at, ...progress } = m;
      if (records !== undefined) (pending.streamed ??= new StreamedRows()).add(at, records);
      pending.progress?.(progress);
      return true;
    }
    if (m.type !== 'error' && m.type !== pending.answer) return false; // not an answer to this kind of request
    this.pending.delete(m.id);
    if (m.type === 'fetchAllResult' && m.streamed !== undefined) {
      const { streamed, ...answer } = m;
      const records = (pending.streamed ?? new StreamedRows()).join(streamed, answer.records);
      pending.settle(
        records === undefined
          ? { ok: false, error: { kind: 'internal', message: t('error.rowsLost') }, byPage: false }
          : { ok: true, reply: { ...answer, records } },
      );
      return true;
    }
    pending.settle(m.type === 'error' ? { ok: false, error: m.error, byPage: false } : { ok: true, reply: m });
    return true;
  }

  /** A request id unique within this page's life. */
  private nextId(kind: string): string {
    this.seq += 1;
    return `${kind}-${Date.now().toString(36)}-${this.seq}`;
  }
}
