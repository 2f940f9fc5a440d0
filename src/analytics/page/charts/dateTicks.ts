/** The x-axis tick callback: full dates (a bucket's days under its key) where there is room, short ones on narrow charts. */
import type { Scale } from 'chart.js';

import { bucketLines, shortBucketLabel, useShortLabels } from '../../model/shortLabel';

export function dateTick(this: Scale, value: number | string, index: number): string | string[] {
  const label = this.getLabelForValue(typeof value === 'number' ? value : index);
  const count = this.chart.data.labels?.length ?? 0;
  return useShortLabels(this.chart.width, count) ? shortBucketLabel(label) : bucketLines(label);
}
