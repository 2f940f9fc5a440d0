/**
 * The end-to-end tier's root hooks (mocha --require, scripts/lib/mocha.mjs): the browser every
 * spec file shares (session.ts) is closed once, after the last one.
 */
import { closeBrowser } from './session';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closeBrowser();
  },
};
