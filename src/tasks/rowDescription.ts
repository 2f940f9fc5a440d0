/**
 * A task row's description: the areas' parts joined with " · ", the most useful first, so a
 * narrow sidebar cuts the least useful. At rest, why the task needs attention leads ("45% failed"),
 * then its run state, the rest of health (no runs in the window), where it syncs to. While a run
 * is going its state leads ("Extracting, 97 rows"): that is what the user is watching, and the
 * reason for attention is about earlier runs (issue 48 walk: it pushed the state out of sight).
 * No `vscode`.
 */
export const DESCRIPTION_PARTS = ['attention', 'run', 'health', 'sync'] as const;
export type DescriptionPart = (typeof DESCRIPTION_PARTS)[number];

const WHILE_RUNNING: readonly DescriptionPart[] = ['run', 'attention', 'health', 'sync'];

/** The description of a row with these parts; undefined when it has none. */
export function rowDescription(parts: ReadonlyMap<DescriptionPart, string>, running: boolean): string | undefined {
  const joined = (running ? WHILE_RUNNING : DESCRIPTION_PARTS)
    .map((p) => parts.get(p))
    .filter((p) => p !== undefined && p !== '')
    .join(' · ');
  return joined === '' ? undefined : joined;
}
