/**
 * The data browser's page (browser side). It talks to the extension only through the messages
 * of data/browse/protocol: it says `ready`, receives `init`, and asks for the rows it shows.
 */
import './zodJitless'; // must stay first: see the file

import { Controller, type VsCodeApi } from './controller';
import { loadBrowseStrings } from './words';

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}

function boot(): void {
  loadBrowseStrings(document);
  const api = acquireVsCodeApi();
  const app = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
  const controller = new Controller(api, app);
  window.addEventListener('message', (event: MessageEvent<unknown>) => controller.receive(event.data));
  controller.post({ type: 'ready' });
}

boot();
