/** What the data capability offers its commands and the rest of the extension: each flow, resolving to its outcome. */
import type { TaskRef } from '../api/taskRef';
import type { BrowseReply } from './browse/host/browsers';
import type { ExportReply } from './export/exportFlow';
import type { RowSource } from './export/exportRows';
import type { PullReply } from './pull/pullFlow';
import type { RemoveOutcome } from './removeFlow';

export interface DataRegistry {
  /** `source`: one run's rows by its lot, or all rows (the default). */
  export(task: TaskRef, source?: RowSource): Promise<ExportReply>;
  /** `chooseFile`: ask for the file even if one is remembered for the task. */
  pull(task: TaskRef, chooseFile?: boolean): Promise<PullReply>;
  /** `lotNo`: one run's rows, or all rows (the default). */
  browse(task: TaskRef, lotNo?: string): Promise<BrowseReply>;
  remove(task: TaskRef): Promise<RemoveOutcome>;
}
