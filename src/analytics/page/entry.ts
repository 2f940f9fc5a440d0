/**
 * The analytics page (browser side). It talks to the extension only through the messages of
 * analytics/protocol/: it says `ready`, receives `init`, and from then on renders what the host sends.
 */
import './zodJitless'; // must stay first: see the file

import { setNumberLocale } from '../model/format';
import { loadPageStrings } from './common/l10n';
import { watchTheme } from './common/theme';
import { Controller } from './controller';
import { Host } from './host';

function boot(): void {
  // Every count in VS Code's UI language (the host writes it into <html data-locale>).
  setNumberLocale(document.documentElement.dataset['locale'] ?? document.documentElement.lang);
  // Its words in the same language, from the table the host wrote into the page (English without one).
  loadPageStrings(document);
  const host = new Host(acquireVsCodeApi());
  const app = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
  const controller = new Controller(host, app);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    // Before event.data: reading it deserialises the message, part of what the benchmark times.
    performance.clearMarks('scrapedeck:event');
    performance.mark('scrapedeck:event');
    controller.receive(event.data);
  });
  watchTheme(() => controller.retheme());
  host.post({ type: 'ready' });
}

boot();
