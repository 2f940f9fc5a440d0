/**
 * What a service address has shown about routes the published document leaves uncertain (today:
 * the spelling of start/stop subtasks). Learnt from a route 404 and kept per base URL, so one
 * address's answer is never applied to another. One instance may be shared by every client a
 * window builds (the extension's ClientHolder does), so a new sign-in does not ask again.
 */
import type { SubtaskSpelling } from '../schemas/runSchemas';

export class ServiceRoutes {
  private readonly subtasks = new Map<string, SubtaskSpelling>();

  /** The spelling of start/stop subtasks this address answered, if known. */
  subtaskSpelling(baseUrl: string): SubtaskSpelling | undefined {
    return this.subtasks.get(baseUrl);
  }

  rememberSubtaskSpelling(baseUrl: string, spelling: SubtaskSpelling): void {
    this.subtasks.set(baseUrl, spelling);
  }
}
