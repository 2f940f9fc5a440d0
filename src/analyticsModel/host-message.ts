/**
 * Parses a message from the host with hostMessageSchema, taking the fast path for the records
 * of a result (see fast-records.ts): zod still checks everything else of the message, and
 * checks the records too whenever the fast path is not sure.
 */
import { hostMessageSchema, parseMessage, type HostMessage } from '../webview/protocol';
import { fastRecords } from './fast-records';

type Parsed = ReturnType<typeof parseMessage<HostMessage>>;

export function parseHostMessage(raw: unknown): Parsed {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const m = raw as Record<string, unknown>;
    const page = typeof m.page === 'object' && m.page !== null ? (m.page as Record<string, unknown>) : undefined;
    if (m.type === 'queryResult' && page) {
      const records = fastRecords(page.data);
      if (records) {
        const shell = parseMessage(hostMessageSchema, { ...m, page: { ...page, data: [] } });
        if (shell.ok && shell.message.type === 'queryResult') shell.message.page.data = records;
        return shell;
      }
    } else if (m.type === 'fetchAllResult') {
      const records = fastRecords(m.records);
      if (records) {
        const shell = parseMessage(hostMessageSchema, { ...m, records: [] });
        if (shell.ok && shell.message.type === 'fetchAllResult') shell.message.records = records;
        return shell;
      }
    }
  }
  return parseMessage(hostMessageSchema, raw);
}
