/**
 * The one shape of a destructive confirmation (Stop Run, Remove Data, Deprecate), so the three
 * behave alike. A modal says what will happen, with exactly one action button (its label ends
 * with "…": more follows) and VS Code's own Cancel as the only way to say no (Escape and the
 * close button mean the same). VS Code's modal always makes its first action the default and
 * offers no way to move it, so that button only opens the second step: the item's name typed out
 * (an empty box or any other text confirms nothing), as DESIGN's modal rule asks. Enter alone
 * therefore never confirms, and declining is always one press of Escape.
 */
import type { Ui } from './ui';

export interface DestructiveQuestion {
  /** The modal's question ("Stop the run of “X”?"), names already plain text. */
  message: string;
  detail: string;
  /** The modal's only action button. */
  action: string;
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

export async function confirmDestructive(ui: Pick<Ui, 'showModalWarning' | 'showInputBox'>, q: DestructiveQuestion): Promise<DestructiveAnswer> {
  if ((await ui.showModalWarning(q.message, q.detail, q.action)) !== q.action) return 'declined';
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
