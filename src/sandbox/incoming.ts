/** A request as it arrives: its body read within a size limit, its target parsed and checked, its content type. */
import type { IncomingMessage } from 'node:http';

import { errorReply } from './http/respond';
import type { matchRoute } from './routes/router';

export const MAX_BODY_BYTES = 1_000_000;

export function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', reject);
  });
}

/** Whether the raw target's path has a `.` or `..` segment, plain or percent-encoded. */
export function hasDotSegments(target: string | undefined): boolean {
  const path = (target ?? '/').split(/[?#]/, 1)[0] ?? '';
  return path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

export function dotSegmentsRefused(pathname: string): ReturnType<typeof matchRoute> {
  return {
    kind: 'error',
    id: 'unknown',
    iface: 'main',
    reply: errorReply('main', 'not-found', `No route for a path with . or .. segments (${pathname})`),
  };
}

export function isJson(contentType: string | undefined): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(contentType ?? '');
}

/** The request target as a URL, or undefined when it is not one. */
export function parseTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://sandbox.invalid');
  } catch {
    return undefined;
  }
}
