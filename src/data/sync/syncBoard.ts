/**
 * What the Tasks view shows of Keep in Sync, for the account signed in now: per task, a short
 * description part and a tooltip line, already in the user's words. Pure (no `vscode`): the sync
 * capability writes it, the Tasks view reads it and redraws on `onDidChange` (as the health board).
 */
import { Emitter, type Event } from '../../platform/emitter';

export interface SyncRowPart {
  /** e.g. "syncs to rows.sqlite". */
  readonly description: string;
  /** e.g. "Kept in sync: after each run its new rows are pulled into PostgreSQL ada@db/sales.public". */
  readonly tooltip: string;
}

/** The read side, for the Tasks view. */
export interface SyncView {
  part(taskId: string): SyncRowPart | undefined;
  readonly onDidChange: Event<void>;
}

export class SyncBoard implements SyncView {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private parts = new Map<string, SyncRowPart>();

  part(taskId: string): SyncRowPart | undefined {
    return this.parts.get(taskId);
  }

  /** Replaces every task's part (the account changed, a follow was set or stopped, trust changed). */
  show(parts: ReadonlyMap<string, SyncRowPart>): void {
    this.parts = new Map(parts);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
