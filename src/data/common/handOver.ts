/**
 * A batch of rows handed to a writer (a pull's sink, an export's writer) is the writer's to let
 * go of. Once it has turned the rows into what it writes (bytes, a statement's parameter, a
 * message to its thread), it empties the array: whatever else still refers to it (an async
 * function keeps what it held while it waits, and temporaries with it) then holds an empty array,
 * not a thousand row objects, through the destination's round trip. What a scavenge finds alive,
 * V8 moves to the old generation, where it stays until a full collection: over a million rows
 * that was most of a pull's heap peak (docs/contracts/data-databases.md, "The heap").
 *
 * Only for an array the caller handed over (a reply's own rows); never one it reads afterwards.
 */
import type { DataRow } from '../../api/schemas/dataSchemas';

export function letGo(rows: DataRow[]): void {
  rows.length = 0;
}
