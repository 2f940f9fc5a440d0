/**
 * A batch's rows as the JSON array `json_to_recordset` reads, written value by value straight into
 * bytes outside the JavaScript heap. No `vscode`.
 *
 * Why not `JSON.stringify` of row objects: that made an object a row and the rows' JSON text
 * (twice: the text and its flattened copy) on the heap for every batch; here the only garbage is
 * one short string a value. (Garbage fills the young generation, and each scavenge promotes
 * about a megabyte of what is alive then: a batch's rows.)
 */

/** One value's JSON (a JSON scalar: the rows are flat). */
export type JsonScalar = string | number | boolean | null;

/** A UTF-16 code unit is at most 3 bytes of UTF-8 (a pair of them, 4). */
const MAX_BYTES_PER_UNIT = 3;

/** `[{"k0":v,"k1":v,…},…]` of `rows`, each row's values given by `valueOf(row, i)` for the key at `i`. */
export function jsonRowsBytes<R>(
  rows: readonly R[],
  keys: readonly string[],
  valueOf: (row: R, i: number) => JsonScalar,
): Buffer {
  // The keys' JSON with their separators, made once: `{"c0":` then `,"c1":` …
  const heads = keys.map((k, i) => `${i === 0 ? '{' : ','}${JSON.stringify(k)}:`);
  let buf = Buffer.allocUnsafe(Math.max(1024, rows.length * keys.length * 16));
  let at = 0;
  const put = (text: string): void => {
    const most = text.length * MAX_BYTES_PER_UNIT;
    if (buf.length - at < most) {
      const grown = Buffer.allocUnsafe(Math.max(buf.length * 2, at + most));
      buf.copy(grown, 0, 0, at);
      buf = grown;
    }
    at += buf.write(text, at, 'utf8');
  };
  put('[');
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as R;
    if (r > 0) put(',');
    if (keys.length === 0) put('{');
    for (let i = 0; i < keys.length; i++) {
      put(heads[i] as string);
      put(JSON.stringify(valueOf(row, i)));
    }
    put('}');
  }
  put(']');
  return buf.subarray(0, at);
}
