/**
 * The translation files stay in step with the code: every %key% of package.json has its English
 * text, every translated key still exists, and every runtime translation is a string the code
 * really passes to vscode.l10n.t (a reworded message would otherwise silently lose its translation).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { ROOT, translatedKeys } from './helpers/l10nSource';

const json = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

describe('l10n: manifest and runtime bundles', () => {
  it('every %key% in package.json has its English text in package.nls.json', () => {
    const manifest = readFileSync(path.join(ROOT, 'package.json'), 'utf8');
    const english = json('package.nls.json');
    const keys = [...manifest.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1] as string);
    assert.ok(keys.length > 40, `${keys.length} placeholders`);
    assert.deepEqual(
      keys.filter((k) => typeof english[k] !== 'string'),
      [],
    );
  });

  it('package.nls.de.json translates only keys that exist', () => {
    const english = json('package.nls.json');
    assert.deepEqual(
      Object.keys(json('package.nls.de.json')).filter((k) => !(k in english)),
      [],
    );
  });

  it('every string of l10n/bundle.l10n.de.json is one the code passes to l10n.t', () => {
    const { keys } = translatedKeys();
    const stale = Object.keys(json('l10n/bundle.l10n.de.json')).filter((k) => !keys.has(k));
    assert.deepEqual(stale, []);
  });
});
