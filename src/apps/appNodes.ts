/**
 * The Data Apps view's nodes: namespaces holding apps. An app's `contextValue` carries flags the
 * menus match: `app` always, then `deprecatable`, `deprecated`, `unknown` (the hub said it has no
 * such app for this account: no Deprecate) or `busy` while the call runs, and `fromSettings` for
 * apps listed in the `scrapedeck.trackedApps` setting.
 */
import * as vscode from 'vscode';

import { COMMANDS } from '../platform/commandIds';
import { plainText } from '../platform/plainText';
import type { NotFoundMark } from './appStore';
import { deprecationDescription, type DeprecationRecord, versionLabel } from './deprecation';
import type { NamespaceGroup, TrackedApp } from './trackedApps';

const t = vscode.l10n.t;

export class NamespaceNode extends vscode.TreeItem {
  override readonly contextValue = 'namespace';

  constructor(readonly group: NamespaceGroup) {
    super(group.namespace, vscode.TreeItemCollapsibleState.Expanded);
    this.id = `namespace:${group.namespace}`;
    this.iconPath = new vscode.ThemeIcon('organization');
    this.description = group.apps.length === 1 ? t('1 app') : t('{0} apps', group.apps.length);
  }
}

export type AppState =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'deprecated'; record: DeprecationRecord }
  | { kind: 'unknown'; mark: NotFoundMark };

export class AppNode extends vscode.TreeItem {
  constructor(
    readonly app: TrackedApp,
    readonly state: AppState,
  ) {
    super(app.name, vscode.TreeItemCollapsibleState.None);
    this.id = `app:${app.ref}`;
    const flags = ['app', state.kind === 'idle' ? 'deprecatable' : state.kind];
    if (app.source === 'settings') flags.push('fromSettings');
    this.contextValue = flags.join(' ');

    const description: string[] = [];
    if (state.kind === 'busy') description.push(t('deprecating…'));
    if (state.kind === 'deprecated') description.push(deprecationDescription(state.record, t));
    if (state.kind === 'unknown') description.push(t('not found by the hub'));
    if (app.source === 'settings') description.push(t('(from settings)'));
    this.description = description.join(' ');

    this.iconPath = iconFor(state);
    this.tooltip = tooltipFor(app, state);
    const said =
      state.kind === 'deprecated' ? t(', deprecated') : state.kind === 'unknown' ? t(', not found by the hub') : '';
    this.accessibilityInformation = {
      label: `${t('Data app {0}', plainText(app.ref))}${said}${app.source === 'settings' ? t(', from settings') : ''}`,
    };
  }

  get ref(): string {
    return this.app.ref;
  }
}

export type AppsNode = NamespaceNode | AppNode;

function iconFor(state: AppState): vscode.ThemeIcon {
  if (state.kind === 'busy') return new vscode.ThemeIcon('loading~spin');
  if (state.kind === 'idle') return new vscode.ThemeIcon('package');
  if (state.kind === 'unknown')
    return new vscode.ThemeIcon('question', new vscode.ThemeColor('list.warningForeground'));
  // Missing secrets are worth a second look, so the deprecated icon turns to the warning colour.
  const colour = state.record.missingSecrets.length > 0 ? 'list.warningForeground' : 'disabledForeground';
  return new vscode.ThemeIcon('archive', new vscode.ThemeColor(colour));
}

function tooltipFor(app: TrackedApp, state: AppState): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  const line = (text: string) => md.appendText(text).appendMarkdown('  \n');
  md.appendMarkdown('**').appendText(app.ref).appendMarkdown('**  \n');
  if (app.source === 'settings') line(t('Listed in the scrapedeck.trackedApps setting.'));
  if (state.kind === 'busy') md.appendText(t('Deprecating…'));
  if (state.kind === 'idle') {
    // The spec has no read for apps: nothing checks an app exists until the hub is asked to deprecate it.
    line(t('No deprecation recorded by Scrapedeck for this hub.'));
    md.appendText(t('Not checked with the hub: the service cannot look an app up; it answers only a deprecation.'));
  }
  if (state.kind === 'unknown') {
    line(
      t(
        'The hub has no app {0} that this account authors (it answered 404 on {1}).',
        plainText(app.ref),
        new Date(state.mark.at).toLocaleString(),
      ),
    );
    if (state.mark.requestId) {
      // One click copies it: a command link, trusted for that one command only.
      const args = encodeURIComponent(JSON.stringify([state.mark.requestId]));
      md.appendText(t('Request ID: {0}', state.mark.requestId)).appendMarkdown(
        ` [${t('Copy')}](command:${COMMANDS.copyRequestId}?${args})  \n`,
      );
      md.isTrusted = { enabledCommands: [COMMANDS.copyRequestId] };
    }
    md.appendText(t('Deprecate is not offered. Stop tracking it, or add it again to ask the hub again.'));
  }
  if (state.kind === 'deprecated') {
    const r = state.record;
    line(t('Deprecated on {0}', new Date(r.at).toLocaleString()));
    line(t('Status: {0}', r.status || t('(none given)')));
    line(t('Version: {0}', versionLabel(r.version, t)));
    md.appendText(
      r.missingSecrets.length > 0
        ? t('Missing secrets: {0}', plainText(r.missingSecrets.join(', ')))
        : t('No missing secrets reported.'),
    );
  }
  return md;
}
