/**
 * What a language-model tool's `prepareInvocation` showed, kept until its `invoke`. VS Code calls
 * the two separately with the same input and nothing else in common, so a confirmation is filed
 * under its input, and `invoke` takes the latest one filed for the same input (each confirmation
 * allows one call; one the user declined is left behind and later dropped). No `vscode`; a few per tool at most, the oldest dropped first.
 */

export interface Confirmed {
  /** Who was signed in, and where (a key, never a secret); undefined while signed out. */
  identity: string | undefined;
  /** What would be acted on (`Plan.target`); undefined: nothing would be sent. */
  target: string | undefined;
  /** The confirmation's title, to name what was confirmed in a refusal. */
  title: string;
  /** The account as the confirmation named it. */
  account?: string;
}

/** Confirmations not yet followed by their call (a declined one never is) are not kept forever. */
const MAX_KEPT = 16;

export class ConfirmedCalls {
  private readonly kept: { key: string; confirmed: Confirmed }[] = [];

  remember(input: unknown, confirmed: Confirmed): void {
    this.kept.push({ key: keyOf(input), confirmed });
    if (this.kept.length > MAX_KEPT) this.kept.shift();
  }

  /** The latest confirmation for this input, removed; undefined when none was shown. */
  take(input: unknown): Confirmed | undefined {
    const key = keyOf(input);
    for (let at = this.kept.length - 1; at >= 0; at--) {
      if (this.kept[at]?.key === key) return this.kept.splice(at, 1)[0]?.confirmed;
    }
    return undefined;
  }
}

/** The input as JSON with its keys sorted, so the same input files under the same key. */
function keyOf(input: unknown): string {
  return JSON.stringify(input ?? {}, (_k, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}
