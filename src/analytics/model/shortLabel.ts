/**
 * Short date-bucket labels for narrow chart axes: "2026-11-16" -> "11-16",
 * "2026-W47 (11-16 – 11-22)" -> "W47", "2026-11 (Nov 20 – Nov 26)" -> "2026-11". The full label stays in the read-out, the canvas's
 * description and the table. Anything else is returned as it is.
 */
export function shortBucketLabel(label: string): string {
  const day = /^\d{4}-(\d{2}-\d{2})$/.exec(label);
  if (day?.[1]) return day[1];
  const week = /^\d{4}-(W\d{2})\b/.exec(label);
  if (week?.[1]) return week[1];
  const month = /^(\d{4}-\d{2}) \(/.exec(label);
  if (month?.[1]) return month[1];
  return label;
}

/**
 * A label with its dates on two lines, for a chart's axis: "2026-W47" over "Nov 20 – Nov 22".
 * Half as wide, so two or three weeks side by side each keep their label instead of one being
 * skipped for want of room. A label without dates is one line.
 */
export function bucketLines(label: string): string | string[] {
  const parts = /^(\S+) \((.+)\)$/.exec(label);
  return parts?.[1] && parts[2] ? [parts[1], parts[2]] : label;
}

/** Below this width (CSS px) a chart with more than a few buckets writes its dates short. */
export const NARROW_CHART_PX = 600;

export function useShortLabels(chartWidth: number, buckets: number): boolean {
  return chartWidth < NARROW_CHART_PX && buckets > 4;
}
