/**
 * The page tier's root hooks (.mocharc.page.json requires this file): after every suite has run,
 * the one stand-in host they shared (standIn.ts) is closed, its Chromium with it.
 */
import { closeSharedStandIn } from './standIn';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closeSharedStandIn();
  },
};
