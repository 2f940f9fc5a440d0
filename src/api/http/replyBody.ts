/**
 * Reading a reply's body with a ceiling, and making server-supplied text fit to show or log.
 * A reply is read as a stream and cut off once it passes MAX_REPLY_BYTES, so a broken or hostile
 * server cannot make the extension host buffer and parse hundreds of megabytes. The limit is far
 * above the largest legitimate reply: a 100-record analytics page is about 100 KB, a 1,000-row
 * data page a few MB.
 */

export const MAX_REPLY_BYTES = 32 * 1024 * 1024;

/** Longest server-supplied value (a request id, a message) that reaches a log line or a message. */
export const MAX_LOGGED_VALUE = 200;

export class ReplyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the reply is larger than ${Math.round(limit / (1024 * 1024))} MB and was cut off`);
  }
}

/** What `readLimited` reads: a Node stream of bytes (undici's reply body). */
export interface ByteStream {
  on(event: 'data', listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy?: (error?: Error) => unknown;
}

/**
 * The body as text, or ReplyTooLargeError once more than `limit` bytes arrived (the stream is
 * destroyed), or at once when the reply's Content-Length says it will be larger. Read with the
 * stream's events: an async iterator costs a promise per chunk, most of a small reply's reading.
 */
export function readLimited(
  body: ByteStream,
  limit = MAX_REPLY_BYTES,
  contentLength?: string | string[],
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    const tooLarge = (): void => {
      const error = new ReplyTooLargeError(limit);
      fail(error);
      body.destroy?.(error);
    };
    const declared = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
    if (declared > limit) return tooLarge();
    body.on('data', (chunk) => {
      if (settled) return;
      const buffer =
        typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      size += buffer.byteLength;
      if (size > limit) return tooLarge();
      chunks.push(buffer);
    });
    body.on('error', fail);
    body.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(
        chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, size).toString('utf8'),
      );
    });
    // Closed without an end or an error: the reply was cut short. Every reply closes after its
    // end too: the error (and its stack trace) is built only when it is one, not on every request.
    body.on('close', () => {
      if (settled) return;
      fail(Object.assign(new Error('the reply ended before its end'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}

/**
 * Server-supplied text as it may be shown or logged: control characters (CR/LF included, so a
 * value cannot forge a log line) and ANSI escapes replaced by spaces, whitespace collapsed, and
 * cut to `max` characters with an ellipsis.
 */
export function fitText(value: string, max = MAX_LOGGED_VALUE): string {
  const clean = value
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
