/**
 * Host -> page messages on the wire. The host encodes with encodeForPage (a fetch's records, in
 * its result and its progress, travel packed: see packedRecords.ts); the page parses with
 * parseHostMessage against hostMessageSchema, taking the fast path for the records (fastRecords.ts):
 * zod still checks everything else of the message, and checks the records too whenever the
 * fast path is not sure.
 */
import { fastPackedRecords, fastRecords } from './fastRecords';
import { type HostMessage, hostMessageSchema, parseMessage } from './messages';
import { packRecord, unpackRecord } from './packedRecords';
import { MESSAGE_LIMITS } from './schemas';

type Parsed = ReturnType<typeof parseMessage<HostMessage>>;

/** What the host posts for a message: the records of a fetch (result or progress) as packed rows, the rest as it is. */
export function encodeForPage(message: HostMessage): unknown {
  if (message.type !== 'fetchAllResult' && message.type !== 'fetchAllProgress') return message;
  const { records, ...rest } = message;
  return records === undefined ? rest : { ...rest, rows: records.map(packRecord) };
}

export function parseHostMessage(raw: unknown): Parsed {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const m = raw as Record<string, unknown>;
    const page = typeof m.page === 'object' && m.page !== null ? (m.page as Record<string, unknown>) : undefined;
    if (m.type === 'queryResult' && page && !tooMany(page.data)) {
      const records = fastRecords(page.data);
      if (records) {
        const shell = parseMessage(hostMessageSchema, { ...m, page: { ...page, data: [] } });
        if (shell.ok && shell.message.type === 'queryResult') shell.message.page.data = records;
        return shell;
      }
    } else if (m.type === 'fetchAllResult' || (m.type === 'fetchAllProgress' && ('rows' in m || 'records' in m))) {
      const { rows, records: objects, ...rest } = m;
      const packed = 'rows' in m;
      const records = tooMany(packed ? rows : objects)
        ? undefined
        : packed
          ? fastPackedRecords(rows)
          : fastRecords(objects);
      if (records) {
        const shell = parseMessage(hostMessageSchema, { ...rest, records: [] });
        if (shell.ok && (shell.message.type === 'fetchAllResult' || shell.message.type === 'fetchAllProgress'))
          shell.message.records = records;
        return shell;
      }
      // Not plainly valid: zod explains, on the records in their logical shape.
      if (packed)
        return parseMessage(hostMessageSchema, {
          ...rest,
          records: Array.isArray(rows) ? rows.map(unpackRecord) : rows,
        });
    }
  }
  return parseMessage(hostMessageSchema, raw);
}

/** More records than a message may carry: zod refuses it, with its own message (the fast path never accepts more than zod). */
function tooMany(list: unknown): boolean {
  return Array.isArray(list) && list.length > MESSAGE_LIMITS.records;
}
