/**
 * The Data Apps view's nodes: namespaces holding apps. An app's `contextValue` carries flags the
 * menus match: `app` always, then `deprecatable` or `deprecated` (or `busy` while the call runs),
 * and `fromSettings` for apps listed in the `scrapedeck.trackedApps` setting.
 */
import * as vscode from 'vscode';
import type { NamespaceGroup, TrackedApp } from '../../apps/trackedApps';
import { type DeprecationRecord, deprecationDescription, versionLabel } from '../../apps/deprecation';

export class NamespaceNode extends vscode.TreeItem {
  override readonly contextValue = 'namespace';

  constructor(readonly group: NamespaceGroup) {
    super(group.namespace, vscode.TreeItemCollapsibleState.Expanded);
    this.id = `namespace:${group.namespace}`;
    this.iconPath = new vscode.ThemeIcon('organization');
    this.description = `${group.apps.length} app${group.apps.length === 1 ? '' : 's'}`;
  }
}

export type AppState = { kind: 'idle' } | { kind: 'busy' } | { kind: 'deprecated'; record: DeprecationRecord };

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
    if (state.kind === 'busy') description.push('deprecating…');
    if (state.kind === 'deprecated') description.push(deprecationDescription(state.record));
    if (app.source === 'settings') description.push('(from settings)');
    this.description = description.join(' ');

    this.iconPath = iconFor(state);
    this.tooltip = tooltipFor(app, state);
    this.accessibilityInformation = {
      label: `Data app ${app.ref}${state.kind === 'deprecated' ? ', deprecated' : ''}${app.source === 'settings' ? ', from settings' : ''}`,
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
  // Missing secrets are worth a second look, so the deprecated icon turns to the warning colour.
  const colour = state.record.missingSecrets.length > 0 ? 'list.warningForeground' : 'disabledForeground';
  return new vscode.ThemeIcon('archive', new vscode.ThemeColor(colour));
}

function tooltipFor(app: TrackedApp, state: AppState): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown('**').appendText(app.ref).appendMarkdown('**  \n');
  if (app.source === 'settings') md.appendText('Listed in the scrapedeck.trackedApps setting.').appendMarkdown('  \n');
  if (state.kind === 'busy') md.appendText('Deprecating…');
  if (state.kind === 'idle') md.appendText('No deprecation recorded by Scrapedeck for this hub.');
  if (state.kind === 'deprecated') {
    const r = state.record;
    md.appendText(`Deprecated on ${new Date(r.at).toLocaleString()}`).appendMarkdown('  \n');
    md.appendText(`Status: ${r.status || '(none given)'}`).appendMarkdown('  \n');
    md.appendText(`Version: ${versionLabel(r.version)}`).appendMarkdown('  \n');
    md.appendText(r.missingSecrets.length > 0 ? `Missing secrets: ${r.missingSecrets.join(', ')}` : 'No missing secrets reported.');
  }
  return md;
}
