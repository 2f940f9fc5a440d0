/**
 * "Try the sandbox", the extension-host side: finds a sandbox at the configured address, or
 * starts one inside the extension host, and points this window at it without writing settings.
 * The choice is remembered in globalState so a reload brings the same sandbox back (same port when
 * free). The embedded server itself stays in `src/sandbox` (no `vscode`) and is loaded from its
 * own bundle file on first use (`loadSandbox.ts`).
 */
import * as vscode from 'vscode';
import * as z from 'zod';

import type { SandboxInfo } from '../../sandbox/seed/info';
import type { RunningSandbox } from '../../sandbox/server';
import type { ClientHolder } from '../clientHolder';
import { normalizeBaseUrl } from '../credentials';
import { sandboxServer } from './loadSandbox';
import { probeSandbox, sandboxInfoProblem } from './sandboxProbe';

const STATE_KEY = 'scrapedeck.sandbox';

const rememberedSchema = z.object({
  baseUrl: z.string().url(),
  datahubUrl: z.string().url(),
  /** true: started in the extension host; false: found at the configured address. */
  embedded: z.boolean(),
});
type Remembered = z.infer<typeof rememberedSchema>;

export interface FoundSandbox {
  info: SandboxInfo;
  embedded: boolean;
}

export class SandboxHost implements vscode.Disposable {
  private running: RunningSandbox | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly account: Pick<
      ClientHolder,
      'usingSandboxOverride' | 'setOverride' | 'clear' | 'onDidDropOverride'
    >,
    private readonly globalState: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // A new scrapedeck.baseUrl dropped the override: the embedded sandbox is no longer wanted.
    this.subscription = account.onDidDropOverride(() => void this.forget());
  }

  get active(): boolean {
    return this.account.usingSandboxOverride;
  }

  /** The configured address if it is a sandbox; otherwise a new one in the extension host. */
  async findOrStart(configuredBaseUrl: string): Promise<FoundSandbox> {
    if (this.running !== undefined) return { info: this.running.info, embedded: true };
    const found = await probeSandbox(configuredBaseUrl, { onRefused: (reason) => this.log.warn(reason) });
    if (found !== undefined) return { info: found, embedded: false };
    return { info: await this.start(undefined), embedded: true };
  }

  /** Points the window at the sandbox and remembers that for the next start. */
  async enter(found: FoundSandbox): Promise<void> {
    const remembered: Remembered = {
      baseUrl: found.info.baseUrl,
      datahubUrl: found.info.datahubUrl,
      embedded: found.embedded,
    };
    await this.globalState.update(STATE_KEY, remembered);
    await this.account.setOverride({ baseUrl: found.info.baseUrl, datahubUrl: found.info.datahubUrl });
  }

  /** Back to the settings' addresses; an embedded sandbox is stopped. */
  async leave(): Promise<void> {
    await this.globalState.update(STATE_KEY, undefined);
    await this.account.setOverride(undefined);
    await this.stop();
  }

  /**
   * After a reload: brings the remembered sandbox back and returns it, for a fresh sign-in
   * (a restarted sandbox is freshly seeded; a new port is a new address with no keys).
   */
  async restore(): Promise<FoundSandbox | undefined> {
    const parsed = rememberedSchema.safeParse(this.globalState.get<unknown>(STATE_KEY));
    if (!parsed.success) return undefined;
    const remembered = parsed.data;
    // What globalState remembers is checked like a probe's answer: only this machine is a sandbox.
    const problem = sandboxInfoProblem(remembered);
    if (problem !== undefined) {
      this.log.warn(`Forgot the remembered sandbox: ${problem}.`);
      await this.globalState.update(STATE_KEY, undefined);
      return undefined;
    }
    let found: FoundSandbox | undefined;
    if (remembered.embedded) {
      found = { info: await this.start(new URL(remembered.baseUrl).port), embedded: true };
    } else {
      const info = await probeSandbox(remembered.baseUrl, { onRefused: (reason) => this.log.warn(reason) });
      found = info === undefined ? undefined : { info, embedded: false };
    }
    if (found === undefined) {
      this.log.warn(`The sandbox at ${remembered.baseUrl} no longer answers; using the configured service address.`);
      await this.globalState.update(STATE_KEY, undefined);
      return undefined;
    }
    if (normalizeBaseUrl(found.info.baseUrl) !== normalizeBaseUrl(remembered.baseUrl)) {
      // The old address is gone for good: so are its keys.
      await this.account.clear(remembered.baseUrl);
    }
    await this.enter(found);
    return found;
  }

  private async start(preferredPort: string | undefined): Promise<SandboxInfo> {
    const port = preferredPort ? Number(preferredPort) : 0;
    const { startSandbox } = sandboxServer();
    let running: RunningSandbox;
    try {
      running = await startSandbox({ host: '127.0.0.1', port });
    } catch (e) {
      if (port === 0) throw e;
      running = await startSandbox({ host: '127.0.0.1', port: 0 }); // the old port is taken
    }
    this.running = running;
    this.log.info(`Started a sandbox at ${running.info.baseUrl} in this window.`);
    return running.info;
  }

  /** The override is already gone: forget it for the next start too, and stop our sandbox. */
  private async forget(): Promise<void> {
    await this.globalState.update(STATE_KEY, undefined);
    await this.stop();
  }

  private async stop(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (running === undefined) return;
    await running.close();
    this.log.info('Stopped the sandbox.');
  }

  dispose(): void {
    this.subscription.dispose();
    void this.stop();
  }
}
