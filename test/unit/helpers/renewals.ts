/**
 * Refresh grants grouped by the expiry they renewed. A session renews once it is within a quarter
 * of its lifetime of expiring, so the grants for one expiry come close together, and the next
 * expiry's come at least three quarters of a lifetime later. Counting per expiry (not in total)
 * keeps "one renewal per expiry" true on a loaded machine, where the calls outlast one token and a
 * second, legitimate renewal follows.
 */
export function grantsPerExpiry(grantTimes: readonly number[], tokenTtlMs: number): number[] {
  const gap = tokenTtlMs / 2;
  const clusters: number[] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const t of [...grantTimes].sort((a, b) => a - b)) {
    if (t - last > gap || clusters.length === 0) clusters.push(1);
    else clusters[clusters.length - 1] = (clusters[clusters.length - 1] ?? 0) + 1;
    last = t;
  }
  return clusters;
}
