/**
 * Restricted Mode: a workspace must never make Scrapedeck connect anywhere. In an untrusted
 * workspace the PostgreSQL commands and PostgreSQL as a pull destination are refused with one
 * sentence (a remembered destination is only a connection's id, but the pull would still open a
 * connection when the folder is opened).
 */
import * as vscode from 'vscode';

import type { Ui } from '../../platform/ui';

const t = vscode.l10n.t;

/** True (after saying why) when the workspace is not trusted. */
export function refusedInRestrictedMode(ui: Pick<Ui, 'isWorkspaceTrusted' | 'showInformationMessage'>): boolean {
  if (ui.isWorkspaceTrusted()) return false;
  void ui.showInformationMessage(
    t('Scrapedeck does not connect to PostgreSQL servers in Restricted Mode: trust this workspace first.'),
  );
  return true;
}
