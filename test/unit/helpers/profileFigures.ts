/** A column profile's figures, as the data browser's store tests compare them. */
import type { ColumnProfile } from '../../../src/data/browse/store/columnProfile';

/** The profile without its most common values: kind, rows, empty, distinct, min and max. */
export function profileFigures(
  p: ColumnProfile,
): Pick<ColumnProfile, 'kind' | 'rows' | 'empty' | 'distinct' | 'min' | 'max'> {
  return { kind: p.kind, rows: p.rows, empty: p.empty, distinct: p.distinct, min: p.min, max: p.max };
}
