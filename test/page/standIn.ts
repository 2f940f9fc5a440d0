/**
 * The one stand-in host hook of the page suites: the server and browser start once per suite, and
 * every page a test opens through it is closed after that test, whatever the test did.
 */
import { AnalyticsPage, startStandIn, type StandIn } from './harness';
import { openInitialised } from './flows';

export interface SuiteHost {
  /** The running stand-in (valid inside tests and hooks). */
  readonly standIn: StandIn;
  /** A page that said `ready` and was initialised (see openInitialised); closed after the test. */
  open(init?: Record<string, unknown>, options?: Parameters<typeof AnalyticsPage.open>[1]): Promise<AnalyticsPage>;
  /** A page that said `ready`, not yet initialised; closed after the test. */
  openRaw(options?: Parameters<typeof AnalyticsPage.open>[1]): Promise<AnalyticsPage>;
}

export function useStandIn(): SuiteHost {
  let running: StandIn | undefined;
  const pages: AnalyticsPage[] = [];
  const track = (p: AnalyticsPage): AnalyticsPage => {
    pages.push(p);
    return p;
  };
  before(async () => { running = await startStandIn(); });
  afterEach(async () => { await Promise.all(pages.splice(0).map((p) => p.close())); });
  after(async () => { await running?.close(); });
  return {
    get standIn(): StandIn {
      if (!running) throw new Error('the stand-in host is not running (use it inside tests and hooks)');
      return running;
    },
    async open(init = {}, options = {}) {
      return track(await openInitialised(this.standIn, init, options));
    },
    async openRaw(options = {}) {
      return track(await AnalyticsPage.open(this.standIn, options));
    },
  };
}
