/**
 * Task chip labels from the host. The host names tasks from its cache of the signed-in account;
 * the page never keeps a label of its own making, so a restored or stale label is replaced, and
 * a task the host could not name shows its id.
 */
import type { FormValues } from '../../model/formState';
import type { TaskName } from '../../protocol';

/** `init`: every chosen task takes the host's name for it, or none (its id shows). */
export function labelFromHost(form: FormValues, names: readonly TaskName[]): FormValues {
  const byId = new Map(names.map((n) => [n.taskId, n.taskName]));
  return { ...form, taskLabels: form.taskIds.map((id) => byId.get(id) ?? '') };
}

/** Names that came after `init`: tasks still chosen get them; other labels stay. Undefined: nothing changed. */
export function addHostNames(form: FormValues, names: readonly TaskName[]): FormValues | undefined {
  const byId = new Map(names.map((n) => [n.taskId, n.taskName]));
  let changed = false;
  const taskLabels = form.taskIds.map((id, i) => {
    const current = form.taskLabels[i] ?? '';
    const named = byId.get(id);
    if (named === undefined || named === current) return current;
    changed = true;
    return named;
  });
  return changed ? { ...form, taskLabels } : undefined;
}
