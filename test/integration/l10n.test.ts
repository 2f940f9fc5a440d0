/**
 * Scrapedeck's strings in a second language, in the real VS Code. Registered only in the run that
 * starts VS Code in another display language (scripts/test-vscode.mjs --locale de, which `npm test`
 * runs after the main suite); the main run is in English and has nothing to check here.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { statusBarText } from '../../src/account/statusBar';

const locale = process.env.SCRAPEDECK_TEST_LOCALE;

if (locale !== undefined) {
  describe(`Scrapedeck in another display language (${locale}, real VS Code)`, () => {
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
      assert.equal(vscode.l10n.t('Scrapedeck has no translation for this sentence.'), 'Scrapedeck has no translation for this sentence.');
    });

    it('manifest strings come from package.nls.de.json (command titles, view names)', async () => {
      const ext = vscode.extensions.getExtension('scrapedeck.scrapedeck');
      assert.ok(ext);
      type Localized = string | { value: string; original: string };
      const manifest = ext.packageJSON as { contributes: { commands: { command: string; title: Localized }[]; views: Record<string, { id: string; name: string }[]> } };
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
