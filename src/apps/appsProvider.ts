/**
 * The Data Apps view's TreeDataProvider: tracked apps (the ones this account added, and those of
 * the setting, shared by every account) grouped by namespace, each showing what the hub told this
 * account about it: its deprecation, or that it has no such app for this account. Nothing another
 * account added or was told shows here. No requests: the spec has no read for apps; the hub tells
 * only when deprecating.
 */
import * as vscode from 'vscode';

import { AppNode, type AppsNode, type AppState, NamespaceNode } from './appNodes';
import type { AppScope, AppStore } from './appStore';
import { groupByNamespace, mergeTracked, type TrackedApp } from './trackedApps';

export interface AppsProviderDeps {
  /** The signed-in account at its hub; undefined while signed out or when no hub URL is set (the welcome explains). */
  scope(): AppScope | undefined;
  store: AppStore;
  /** Valid refs of the `scrapedeck.trackedApps` setting. */
  settingsApps(): readonly string[];
}

export class AppsTreeProvider implements vscode.TreeDataProvider<AppsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AppsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Apps whose deprecation is under way: shown with a spinner and no actions. */
  private readonly busy = new Set<string>();

  constructor(private readonly deps: AppsProviderDeps) {}

  /** Every tracked app of the current hub, or [] when there is none. */
  tracked(): TrackedApp[] {
    const scope = this.deps.scope();
    if (scope === undefined) return [];
    return mergeTracked(this.deps.store.apps(scope), this.deps.settingsApps());
  }

  find(ref: string): TrackedApp | undefined {
    return this.tracked().find((a) => a.ref === ref);
  }

  stateOf(ref: string): AppState {
    if (this.busy.has(ref)) return { kind: 'busy' };
    const scope = this.deps.scope();
    if (scope === undefined) return { kind: 'idle' };
    const record = this.deps.store.deprecation(scope, ref);
    if (record) return { kind: 'deprecated', record };
    const notFound = this.deps.store.notFound(scope, ref);
    return notFound ? { kind: 'unknown', mark: notFound } : { kind: 'idle' };
  }

  setBusy(ref: string, busy: boolean): void {
    if (busy) this.busy.add(ref);
    else this.busy.delete(ref);
    this.refresh();
  }

  getTreeItem(element: AppsNode): vscode.TreeItem {
    return element;
  }

  getChildren(element?: AppsNode): AppsNode[] {
    if (element === undefined) return groupByNamespace(this.tracked()).map((g) => new NamespaceNode(g));
    if (element instanceof NamespaceNode)
      return element.group.apps.map((app) => new AppNode(app, this.stateOf(app.ref)));
    return [];
  }

  getParent(element: AppsNode): AppsNode | undefined {
    if (!(element instanceof AppNode)) return undefined;
    const group = groupByNamespace(this.tracked()).find((g) => g.namespace === element.app.namespace);
    return group ? new NamespaceNode(group) : undefined;
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
