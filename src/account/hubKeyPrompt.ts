/** The one prompt the account service itself shows: the data-app hub API key. */
import { headerValueProblem } from '../api/headerValues';
import type { Ui } from '../platform/ui';

/** The password box for a hub API key; undefined when dismissed. */
export async function promptHubApiKey(ui: Ui): Promise<string | undefined> {
  const key = await ui.showInputBox({
    title: 'Data-App Hub API Key',
    prompt: 'The data-app hub accepts only an API key (create one in the account center). It is kept in VS Code\'s secret storage.',
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? 'Enter the API key.' : headerValueProblem(v.trim(), 'The API key')),
  });
  return key === undefined ? undefined : key.trim();
}
