/**
 * Scrapedeck's strings in a second language, in the real VS Code. Registered only in the run that
 * starts VS Code in another display language (scripts/test-vscode.mjs --locale de, which `npm test`
 * runs after the main suite); the main run is in English and has nothing to check here.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import { statusBarText } from '../../src/account/statusBar';
import { ApiError } from '../../src/api/errors/errors';
import { composeErrorText } from '../../src/platform/errorText';
import { getApi, replaceUi, waitFor } from './viewsHarness';

const locale = process.env.SCRAPEDECK_TEST_LOCALE;

if (locale !== undefined) {
  // The expected texts are German: the run that sets a locale is `--locale de` (scripts/test-all.mjs).
  describe(`Scrapedeck in another display language (${locale}, real VS Code; German)`, () => {
    it('VS Code runs in that language', () => {
      assert.equal(vscode.env.language, locale);
    });

    it('runtime strings come from l10n/bundle.l10n.de.json (the status bar item)', async () => {
      // VS Code loads an extension's bundle when it activates it.
      await vscode.extensions.getExtension('scrapedeck.scrapedeck')?.activate();
      const view = statusBarText(undefined, 'https://openapi.example.com');
      assert.equal(view.text, '$(account) Anmelden');
      assert.equal(view.tooltip, 'Scrapedeck: nicht bei https://openapi.example.com angemeldet. Zum Anmelden klicken.');
      // A string the bundle does not translate stays English rather than breaking.
      assert.equal(
        vscode.l10n.t('Scrapedeck has no translation for this sentence.'),
        'Scrapedeck has no translation for this sentence.',
      );
    });

    it('a notification and a quick pick of the running extension are in German', async () => {
      const api = await getApi();
      const shown: string[] = [];
      const picks: { labels: string[]; title: string | undefined }[] = [];
      const restore = replaceUi(api, {
        showInformationMessage: (message: string) => {
          shown.push(message);
          return Promise.resolve(undefined);
        },
        showQuickPick: <T extends vscode.QuickPickItem>(
          items: readonly T[] | Thenable<readonly T[]>,
          options: vscode.QuickPickOptions,
        ) =>
          Promise.resolve(items).then((list) => {
            picks.push({ labels: list.map((i) => i.label), title: options.title });
            return undefined;
          }),
      });
      try {
        // A data command given something that is not a task says how to choose one: a real
        // notification text (with no argument at all, the palette's question would ask instead).
        await vscode.commands.executeCommand('scrapedeck.data.export', { notATask: true });
        await waitFor('the notification', () => shown.length > 0);
        assert.equal(
          shown[0],
          'Wählen Sie eine Aufgabe in der Scrapedeck-Ansicht „Aufgaben“ und verwenden Sie ihr Kontextmenü.',
        );
        // The account menu, signed in or not, offers its settings and log in German.
        await vscode.commands.executeCommand('scrapedeck.accountMenu');
        await waitFor('the account menu', () => picks.length > 0);
        const menu = picks[0];
        assert.ok(menu);
        assert.ok(menu.labels.includes('$(settings-gear) Einstellungen öffnen'), menu.labels.join(' | '));
        assert.ok(menu.labels.includes('$(output) Protokoll anzeigen'), menu.labels.join(' | '));
        assert.match(menu.title ?? '', /^Scrapedeck: /);
      } finally {
        restore();
      }
    });

    it('error text composed in src/platform/errorText.ts is in German', () => {
      const error = new ApiError({ kind: 'rate-limited', message: 'Too many requests.', requestId: 'r-1' });
      const { text, requestId } = composeErrorText(error, 'loadTasks', 'Preise', vscode.l10n.t);
      assert.ok(text.startsWith('Die Aufgaben von „Preise“ konnten nicht geladen werden.'), text);
      assert.ok(text.includes('Der Dienst begrenzt die Anfragen'), text);
      assert.equal(requestId, 'r-1', 'the request id is offered, not translated away');
    });

    it('the analytics page speaks German: the host writes its table into the page, and the page words from it', async () => {
      const api = await getApi();
      for (const p of api.analytics.panels()) p.dispose();
      // Nothing of the test before stays over the page (a quick pick left open).
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      const panel = api.analytics.openPanel(undefined);
      // The host's title first ('Task Analytics' in German), from vscode.l10n.t.
      assert.equal(panel.title, 'Aufgabenanalyse');
      await Promise.race([
        panel.pageReady,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('the page never said ready (script blocked or missing?)')), 35_000),
        ),
      ]);
      // Then the page's own: it names the query on screen from its table ('Analytics: {0}' and
      // 'All tasks' of src/analytics/model/pageStrings.ts), which only the German table words so.
      await waitFor('the page to name its query in German', () => panel.title === 'Analyse: Alle Aufgaben', 20_000);
      // Left open: the harness's screenshot (artifacts/vscode/l10n-de.png) shows the German page.
    });

    it('manifest strings come from package.nls.de.json (command titles, view names)', async () => {
      const ext = vscode.extensions.getExtension('scrapedeck.scrapedeck');
      assert.ok(ext);
      type Localized = string | { value: string; original: string };
      const manifest = ext.packageJSON as {
        contributes: {
          commands: { command: string; title: Localized }[];
          views: Record<string, { id: string; name: string }[]>;
        };
      };
      // A localized command title arrives as { value, original } (original: the English one).
      const title = (id: string) => {
        const found = manifest.contributes.commands.find((c) => c.command === id)?.title;
        return typeof found === 'object' ? found.value : found;
      };
      assert.equal(title('scrapedeck.signOut'), 'Abmelden');
      assert.equal(title('scrapedeck.analytics.open'), 'Aufgabenanalyse öffnen');
      assert.equal(manifest.contributes.views.scrapedeck?.find((v) => v.id === 'scrapedeck.tasks')?.name, 'Aufgaben');
      // Untranslated entries fall back to package.nls.json, never to a %placeholder%.
      assert.equal(title('scrapedeck.apps.copyRef'), 'Copy App Reference');
      // Left open for the harness's screenshot (artifacts/vscode/l10n-de.png): the menu in German.
      void vscode.commands.executeCommand('scrapedeck.accountMenu');
      await new Promise((r) => setTimeout(r, 800));
    });
  });
}
