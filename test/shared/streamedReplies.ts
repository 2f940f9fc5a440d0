/**
 * The host's replies as the page takes them in: a fetch's rows that came with its progress are put
 * back in front of the answer's own (the page's own join, `StreamedRows`). A result whose rows do
 * not add up fails the test. Used by the unit tests of the router and the integration tests that
 * drive a real panel.
 */
import * as assert from 'node:assert/strict';

import { type HostMessage, StreamedRows } from '../../src/analytics/protocol';

export interface StreamCount {
  /** Progress messages that carried rows. */
  batches: number;
  /** Rows that came with the progress; what the results carried themselves. */
  streamedRows: number;
  tailRows: number;
}

/** Returns a function that passes each message on, with a result's streamed rows joined in front. */
export function streamJoiner(count?: StreamCount): (m: HostMessage) => HostMessage {
  const streams = new Map<string, StreamedRows>();
  return (m) => {
    if (m.type === 'fetchAllProgress' && m.records) {
      const stream = streams.get(m.id) ?? new StreamedRows();
      streams.set(m.id, stream);
      assert.equal(m.at, stream.length, 'rows come in order, each batch where the last one ended');
      stream.add(m.at, m.records);
      if (count) {
        count.batches += 1;
        count.streamedRows += m.records.length;
      }
    }
    if (m.type !== 'fetchAllResult' || m.streamed === undefined) return m;
    const { streamed, ...result } = m;
    const records = (streams.get(m.id) ?? new StreamedRows()).join(streamed, result.records);
    streams.delete(m.id);
    assert.ok(records, `the result counts the rows its progress carried (${streamed})`);
    if (count) count.tailRows += result.records.length;
    return { ...result, records };
  };
}
