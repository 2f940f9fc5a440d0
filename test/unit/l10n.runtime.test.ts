/**
 * Runtime strings stay translatable: no user-facing place of the extension host gets a plain
 * literal (messages and their buttons, modal details, quick pick and input box words, progress
 * titles, tree items, the status bar, webview panel titles), l10n/bundle.l10n.json holds exactly
 * the messages the code passes to vscode.l10n.t, and every translation keeps its {n} placeholders.
 * Fix a stale bundle with `npm run compile-tests && node scripts/l10n-bundle.mjs`.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { validateSettings } from '../../src/platform/settings';
import { hostSources, type Place, ROOT, translatedKeys, untranslatedLiterals } from './helpers/l10nSource';

const json = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;
const where = (p: Place) => `${p.file}:${p.line}: ${p.text}`;
const placeholders = (text: string) =>
  [...text.matchAll(/\{(\d+)\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');

/**
 * User-facing literals not translated yet, each with the work that removes it (by file and the
 * literal's start). Empty is the goal; a new entry needs a reason a reviewer accepts.
 */
const KNOWN_UNTRANSLATED = new Set<string>([]);
const isKnown = (p: Place, k: string) => `${p.file}: ${p.text}`.startsWith(k);
const known = (p: Place) => [...KNOWN_UNTRANSLATED].some((k) => isKnown(p, k));

describe('l10n: runtime strings go through vscode.l10n.t', () => {
  it('scans the host side (and not the page, the sandbox or the client)', () => {
    const files = hostSources().map((f) => path.relative(ROOT, f).split(path.sep).join('/'));
    assert.ok(files.includes('src/account/accountMenu.ts'));
    assert.ok(files.includes('src/platform/errorText.ts'));
    assert.ok(!files.some((f) => /^src\/(webview|sandbox|api)\//.test(f)), 'page, sandbox and client are not scanned');
  });

  it('no user-facing place gets a plain literal', () => {
    const found = untranslatedLiterals().filter((p) => !known(p));
    assert.deepEqual(found.map(where), []);
  });

  it('every known exception still exists (a fixed one leaves the list)', () => {
    const found = untranslatedLiterals();
    const stale = [...KNOWN_UNTRANSLATED].filter((k) => !found.some((p) => isKnown(p, k)));
    assert.deepEqual(stale, []);
  });

  it('catches a literal planted in each kind of place, and lets translated and exempt ones pass', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scrapedeck-l10n-'));
    try {
      const file = path.join(dir, 'planted.ts');
      writeFileSync(
        file,
        [
          "import * as vscode from 'vscode';",
          'const t = vscode.l10n.t;',
          "void vscode.window.showInformationMessage('Planted message.');",
          "void vscode.window.showWarningMessage(t('Fine {0}.', 1), { modal: true, detail: 'Planted detail.' }, 'Planted button');",
          "void ui.showErrorMessage(ok ? t('Fine.') : `Planted ${n} branch`);",
          "void vscode.window.showQuickPick([{ label: 'Planted item', description: t('Fine') }], { title: 'Planted title', placeHolder: `Pick ${n}` });",
          "void vscode.window.showInputBox({ prompt: 'Planted prompt', validateInput: (v) => (v ? undefined : t('Fine')) });",
          "void vscode.window.withProgress({ location: 1, title: 'Planted progress' }, async () => undefined);",
          "class Node extends vscode.TreeItem { constructor() { super('Planted label'); this.tooltip = 'Planted tooltip'; } }",
          "class Other { constructor() { super('not a tree item'); } }",
          "item.text = '$(account) Planted status';",
          "item.text = '$(sync~spin)';",
          "vscode.window.createWebviewPanel('scrapedeck.x', 'Planted panel', 1);",
          "void vscode.window.showInformationMessage(`$(copy) ${t('Fine {0}', x)}`);",
          "void vscode.window.showInformationMessage('Exempt on purpose'); // l10n-exempt: a test of the marker",
        ].join('\n'),
      );
      const found = untranslatedLiterals([file], dir).map((p) => p.text);
      const planted = [
        "'Planted message.'",
        "'Planted detail.'",
        "'Planted button'",
        '`Planted ${n} branch`',
        "'Planted item'",
        "'Planted title'",
        '`Pick ${n}`',
        "'Planted prompt'",
        "'Planted progress'",
        "'Planted label'",
        "'Planted tooltip'",
        "'$(account) Planted status'",
        "'Planted panel'",
      ];
      assert.deepEqual([...new Set(found)].sort(), [...planted].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every l10n.t message is a literal (a tool can only extract literals)', () => {
    assert.deepEqual(translatedKeys().dynamic.map(where), []);
  });
});

describe('l10n: pure modules word through the translator they are given', () => {
  it('a refused setting is said in whole translated sentences, English by default', () => {
    const raw = {
      baseUrl: 'ftp://x',
      proxy: 'socks5://p:1',
      requestsPerSecond: 50,
      trackedApps: ['bad'],
      analyticsAutoFetchRows: 1,
    };
    const marked = validateSettings(
      raw,
      undefined,
      (m, ...a) => `«${m.replace(/\{(\d+)\}/g, (_x, i: string) => String(a[Number(i)]))}»`,
    ).problems;
    assert.equal(marked.length, 5);
    for (const p of marked)
      assert.match(
        p.message,
        /^«The setting [^«»]*» «Using [^«»]*»$|^«The setting [^«»]*\. It is ignored\.»$/,
        p.message,
      );
    const plain = validateSettings(raw).problems.map((p) => p.message);
    assert.ok(
      plain.includes(
        'The setting scrapedeck.requestsPerSecond is 50, which is not a number from 1 to 20 (the service allows 20 per second). Using 20 instead.',
      ),
      plain.join('\n'),
    );
  });
});

describe('l10n: the runtime bundles', () => {
  const { keys } = translatedKeys();
  const fix = 'run `npm run compile-tests && node scripts/l10n-bundle.mjs`';

  it('l10n/bundle.l10n.json holds every message the code uses, and no other', () => {
    const bundle = json('l10n/bundle.l10n.json');
    assert.ok(keys.size > 400, `${keys.size} messages`);
    assert.deepEqual(
      [...keys.keys()].filter((k) => !(k in bundle)),
      [],
      `missing from the bundle: ${fix}`,
    );
    assert.deepEqual(
      Object.keys(bundle).filter((k) => !keys.has(k)),
      [],
      `stale in the bundle: ${fix}`,
    );
    assert.deepEqual(
      Object.entries(bundle).filter(([k, v]) => k !== v),
      [],
      'the English bundle maps each message to itself',
    );
  });

  it('every German translation keeps the placeholders of its message', () => {
    const de = json('l10n/bundle.l10n.de.json');
    const broken = Object.entries(de).filter(
      ([k, v]) => typeof v !== 'string' || v.trim() === '' || placeholders(k) !== placeholders(v),
    );
    assert.deepEqual(broken, []);
  });

  it('the placeholder check would catch a lost or renumbered {n}', () => {
    assert.notEqual(placeholders('Stopped {0} of {1} runs'), placeholders('{0} Läufe gestoppt'));
    assert.notEqual(placeholders('Copied {0}'), placeholders('{1} kopiert'));
    assert.equal(placeholders('{1} of {0}'), placeholders('{0} von {1}'));
  });
});
