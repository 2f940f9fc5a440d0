/** A task as the extension passes it around: its id, and the name the service gave it. */
export interface TaskRef {
  readonly taskId: string;
  readonly taskName: string;
}
