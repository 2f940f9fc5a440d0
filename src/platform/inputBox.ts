/**
 * `showInputBox` with a "Copy Request ID" button in the box's title bar, for prompts that show
 * an error from the service: the request id stays one click away while the user retries. Built on
 * `createInputBox` (the only input box that takes buttons), with `showInputBox`'s behaviour:
 * validation as the user types, Enter refused while a validation error shows, Escape = undefined.
 */
import * as vscode from 'vscode';

export interface InputOptions extends vscode.InputBoxOptions {
  /** The request id of the error the prompt shows; offered as a copy button on the box. */
  requestId?: string;
}

export function showInputBoxWithRequestId(
  options: InputOptions & { requestId: string },
  copy: (requestId: string) => Thenable<void>,
): Thenable<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.placeholder = options.placeHolder;
  box.password = options.password ?? false;
  box.ignoreFocusOut = options.ignoreFocusOut ?? false;
  box.value = options.value ?? '';
  if (options.valueSelection) box.valueSelection = options.valueSelection;
  const copyButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('copy'),
    tooltip: vscode.l10n.t('Copy Request ID {0}', options.requestId),
  };
  box.buttons = [copyButton];

  let blocking = false;
  let check = 0;
  const validate = async (value: string): Promise<void> => {
    const mine = ++check;
    const result = await options.validateInput?.(value);
    if (mine !== check) return; // a newer keystroke won
    box.validationMessage = result ?? undefined;
    blocking =
      result !== undefined &&
      result !== null &&
      (typeof result === 'string' || result.severity === vscode.InputBoxValidationSeverity.Error);
  };

  return new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      subscriptions.forEach((s) => s.dispose());
      box.dispose();
      resolve(value);
    };
    const subscriptions = [
      box.onDidChangeValue((value) => void validate(value)),
      box.onDidTriggerButton((button) => {
        if (button === copyButton) void copy(options.requestId);
      }),
      box.onDidAccept(async () => {
        await validate(box.value);
        if (!blocking) finish(box.value);
      }),
      box.onDidHide(() => finish(undefined)),
    ];
    void validate(box.value);
    box.show();
  });
}
