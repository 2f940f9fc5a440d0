/**
 * A scripted HTTP server for wire tests: it records every request (method, path, query, parsed
 * body, headers) and answers what the test's handler says, including a dropped connection.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The JSON body, or undefined when there was none. */
  body: unknown;
  rawBody: string;
  headers: IncomingHttpHeaders;
}

/** `drop`: close the connection; `hang`: never answer (until the client gives up). */
export type Answer =
  { status?: number; body?: unknown; raw?: string; headers?: Record<string, string> } | 'drop' | 'hang';
export type Handler = (seen: Seen, index: number) => Answer;

/** `{ data, requestId }` with a fresh id. */
export const okReply = (data: unknown, requestId = 'req-ok'): Answer => ({ status: 200, body: { data, requestId } });
export const errorAnswer = (status: number, code: string | number, message: string, requestId = 'req-err'): Answer => ({
  status,
  body: { error: { code, message }, requestId },
});

export class RecordingServer {
  readonly seen: Seen[] = [];
  handler: Handler = () => okReply(null);
  baseUrl = '';
  private server: Server | undefined;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (raw += c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x.invalid');
        let body: unknown;
        try {
          body = raw === '' ? undefined : (JSON.parse(raw) as unknown);
        } catch {
          body = undefined;
        }
        const seen: Seen = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          body,
          rawBody: raw,
          headers: req.headers,
        };
        this.seen.push(seen);
        const answer = this.handler(seen, this.seen.length - 1);
        if (answer === 'drop') {
          req.socket.destroy();
          return;
        }
        if (answer === 'hang') return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.raw ?? JSON.stringify(answer.body ?? {}));
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Forget what was seen and answer with a new handler. */
  reset(handler: Handler): void {
    this.seen.length = 0;
    this.handler = handler;
  }

  paths(): string[] {
    return this.seen.map((s) => `${s.method} ${s.path}${[...s.query].length > 0 ? `?${s.query.toString()}` : ''}`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}
