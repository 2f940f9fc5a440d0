/**
 * The items of a modal warning (`ui.ts`), in the order VS Code shows them. No `vscode`.
 *
 * VS Code makes the first item that is not the close affordance the primary button (Enter), and
 * shows the close affordance apart as the dialog's cancel (Escape). So:
 * - `'action'` (the default): the action is primary and `keep` is the close affordance: one way
 *   to say no, named for what it keeps.
 * - `'keep'`: where the action is the risky one (mixing two tasks' rows in one file), `keep` is
 *   first and so primary: one Enter keeps. VS Code then adds its own Cancel for Escape, which
 *   also keeps.
 */
export interface ModalItem {
  title: string;
  isCloseAffordance?: boolean;
}

export type ModalDefault = 'action' | 'keep';

export function modalItems(action: string, keep: string, primary: ModalDefault = 'action'): ModalItem[] {
  return primary === 'keep'
    ? [{ title: keep }, { title: action }]
    : [{ title: action }, { title: keep, isCloseAffordance: true }];
}

/** Where the action is the risky one: the way to keep things as they are is the default button. */
export const KEEP_BY_DEFAULT: ModalDefault = 'keep';
