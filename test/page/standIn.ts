/**
 * The one stand-in host hook of the page suites: the server and browser start once for the whole
 * page tier (the first suite that needs them starts them, the root hook in rootHooks.ts closes
 * them), and every page a test opens through it is closed after that test, whatever the test did.
 * A closed page's tab is navigated afresh for the next test (startStandIn's reusePages): a new
 * document, with nothing of the last one (the page keeps no cookies or web storage; its setState
 * lives in the document), for a fraction of a new browser context's cost. A Chromium per file
 * cost seconds each.
 */
import { openInitialised } from './flows';
import { AnalyticsPage, type StandIn, startStandIn } from './harness';

let shared: Promise<StandIn> | undefined;

/** The tier's stand-in, started on first use; a start that failed is tried again by the next suite. */
export function sharedStandIn(): Promise<StandIn> {
  if (shared === undefined) {
    const starting = startStandIn({ reusePages: true, reducedMotion: true });
    shared = starting;
    starting.catch(() => {
      if (shared === starting) shared = undefined;
    });
  }
  return shared;
}

/** Closes the tier's stand-in, if one started (the root hook's afterAll). */
export async function closeSharedStandIn(): Promise<void> {
  const closing = shared;
  shared = undefined;
  const running = await closing?.catch(() => undefined);
  await running?.close();
}

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
  before(async () => {
    running = await sharedStandIn();
  });
  afterEach(async () => {
    await Promise.all(pages.splice(0).map((p) => p.close()));
  });
  after(() => {
    running = undefined;
  });
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
