/** The data-app hub's API key, asked for in a password box (Set Hub API Key, and the hub's first use after a password sign-in). */
import * as vscode from 'vscode';

import { headerValueProblem } from '../api/schemas/headerValues';
import type { Ui } from '../platform/ui';

const t = vscode.l10n.t;

/** The password box for a hub API key; undefined when dismissed. */
export async function promptHubApiKey(ui: Ui): Promise<string | undefined> {
  const key = await ui.showInputBox({
    title: t('Data-App Hub API Key'),
    prompt: t(
      "The data-app hub accepts only an API key (create one in the account center). It is kept in VS Code's secret storage.",
    ),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? t('Enter the API key.') : headerValueProblem(v.trim(), t('The API key'))),
  });
  return key === undefined ? undefined : key.trim();
}
