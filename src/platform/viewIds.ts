/** The sidebar views' ids (package.json `views`): the Tasks view's spinner is shown from more than one capability. */
import * as vscode from 'vscode';

export const TASKS_VIEW_ID = 'scrapedeck.tasks';
export const APPS_VIEW_ID = 'scrapedeck.apps';

/** Runs `work` with the spinner on the Tasks view. */
export function withTasksViewProgress<T>(work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: { viewId: TASKS_VIEW_ID } }, work);
}
