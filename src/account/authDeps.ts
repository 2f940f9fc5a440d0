/** What the sign-in, sign-out, account-menu and sandbox flows use. */
import type * as vscode from 'vscode';

import type { Configuration } from '../platform/configuration';
import type { Ui } from '../platform/ui';
import type { ClientHolder } from './clientHolder';
import type { SandboxHost } from './sandbox/sandboxHost';

export interface AuthDeps {
  account: ClientHolder;
  sandbox: SandboxHost;
  configuration: Configuration;
  ui: Ui;
  log: vscode.LogOutputChannel;
}

export type SignInDeps = Pick<AuthDeps, 'account' | 'ui'>;
export type AccountMenuDeps = Pick<AuthDeps, 'account' | 'ui' | 'log'>;
