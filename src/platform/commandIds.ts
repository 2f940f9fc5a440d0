/**
 * Every command id Scrapedeck registers, in one typed table. No `vscode`: the manifest test reads
 * it in plain Node and checks `package.json` against it both ways.
 *
 * It sits on the lowest floor because tree items, the "Sign In Again" prompt and a few messages
 * name commands too. Each capability registers the handlers of its own ids in its `createX`
 * (`commandHandlers.ts`), and main.ts's `everyCommand` does not compile while an id has none.
 */
export const COMMANDS = {
  // auth
  signInWithApiKey: 'scrapedeck.signInWithApiKey',
  signInWithPassword: 'scrapedeck.signInWithPassword',
  trySandbox: 'scrapedeck.trySandbox',
  signOut: 'scrapedeck.signOut',
  switchAccount: 'scrapedeck.switchAccount',
  setHubApiKey: 'scrapedeck.setHubApiKey',
  // account
  accountMenu: 'scrapedeck.accountMenu',
  showLog: 'scrapedeck.showLog',
  openSettings: 'scrapedeck.openSettings',
  openHubSettings: 'scrapedeck.openHubSettings',
  copyRequestId: 'scrapedeck.copyRequestId',
  // tasks
  tasksRefresh: 'scrapedeck.tasks.refresh',
  tasksFilter: 'scrapedeck.tasks.filter',
  tasksClearFilter: 'scrapedeck.tasks.clearFilter',
  tasksLoadMore: 'scrapedeck.tasks.loadMore',
  tasksCopyId: 'scrapedeck.tasks.copyId',
  tasksOpenSelected: 'scrapedeck.tasks.openSelected',
  // analytics
  analyticsOpen: 'scrapedeck.analytics.open',
  analyticsOpenForTask: 'scrapedeck.analytics.openForTask',
  analyticsOpenForGroup: 'scrapedeck.analytics.openForGroup',
  // apps
  appsAdd: 'scrapedeck.apps.add',
  appsRemove: 'scrapedeck.apps.remove',
  appsDeprecate: 'scrapedeck.apps.deprecate',
  appsCopyRef: 'scrapedeck.apps.copyRef',
  // data
  dataExport: 'scrapedeck.data.export',
  dataExportRun: 'scrapedeck.data.exportRun',
  dataPullNewRows: 'scrapedeck.data.pullNewRows',
  dataBrowse: 'scrapedeck.data.browse',
  dataBrowseRun: 'scrapedeck.data.browseRun',
  dataRemove: 'scrapedeck.data.remove',
  dataAddPostgresConnection: 'scrapedeck.data.addPostgresConnection',
  dataTestPostgresConnection: 'scrapedeck.data.testPostgresConnection',
  dataRemovePostgresConnection: 'scrapedeck.data.removePostgresConnection',
  dataKeepInSync: 'scrapedeck.data.keepInSync',
  dataStopSync: 'scrapedeck.data.stopSync',
  // health
  healthRefresh: 'scrapedeck.health.refresh',
  // runs
  runsStart: 'scrapedeck.runs.start',
  runsStop: 'scrapedeck.runs.stop',
  runsEditUrlList: 'scrapedeck.runs.editUrlList',
  runsLoadMoreSubtasks: 'scrapedeck.runs.loadMoreSubtasks',
  runsSaveList: 'scrapedeck.runs.saveList',
  tasksDuplicate: 'scrapedeck.tasks.duplicate',
  tasksMoveToGroup: 'scrapedeck.tasks.moveToGroup',
} as const satisfies Record<string, `scrapedeck.${string}`>;

export type CommandKey = keyof typeof COMMANDS;
export type CommandId = (typeof COMMANDS)[CommandKey];

/** Every id, in table order. */
export const COMMAND_IDS: readonly CommandId[] = Object.values(COMMANDS);
