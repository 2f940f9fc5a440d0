/**
 * The one shape of a destructive confirmation (Stop Run, Remove Data, Deprecate), so the three
 * behave alike. A modal says what will happen, with exactly one action button (its label ends
 * with "…": more follows) and one button named for what saying no keeps ("Keep Running"), which
 * is also what Escape and the close button pick: one way to say no, never a second "Cancel".
 * VS Code's modal always focuses its first action and offers no way to move the focus to the
 * button that says no, so the action only opens the second step: the item's name typed out (an
 * empty box or any other text confirms nothing), as DESIGN's modal rule asks. Enter alone
 * therefore never changes anything, and declining is always one press of Escape.
 */
import type { Ui } from './ui';

export interface DestructiveQuestion {
  /** The modal's question ("Stop the run of “X”?"), names already plain text. */
  message: string;
  detail: string;
  /** The modal's only action button. */
  action: string;
  /** The button that says no, named for what it keeps ("Keep Running"). */
  keep: string;
  /** The second step: what must be typed, exactly (white space around it aside). */
  typed: {
    title: string;
    prompt: string;
    expected: string;
    /** Shown under the box while the text is not `expected`. */
    mismatch: string;
  };
}

/** `mismatch`: something else was typed and Enter pressed (callers may say nothing happened). */
export type DestructiveAnswer = 'confirmed' | 'declined' | 'mismatch';

export async function confirmDestructive(
  ui: Pick<Ui, 'showModalWarning' | 'showInputBox'>,
  q: DestructiveQuestion,
): Promise<DestructiveAnswer> {
  if ((await ui.showModalWarning(q.message, q.detail, q.action, q.keep)) !== q.action) return 'declined';
  const typed = await ui.showInputBox({
    title: q.typed.title,
    prompt: q.typed.prompt,
    placeHolder: q.typed.expected,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === q.typed.expected ? undefined : q.typed.mismatch),
  });
  if (typed === undefined) return 'declined';
  return typed.trim() === q.typed.expected ? 'confirmed' : 'mismatch';
}
