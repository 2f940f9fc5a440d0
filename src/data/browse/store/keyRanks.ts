/** What a column's sort keys are (made in columnKeys.ts from numberRanks.ts or textRanks.ts). */
import type { ColumnKind } from './cells';

export interface ColumnKeys {
  /** Rank of each row's cell among the distinct values, ascending; `groups` for an empty cell. */
  ranks: Uint32Array;
  /** Distinct non-empty values. */
  groups: number;
  kind: ColumnKind;
}
