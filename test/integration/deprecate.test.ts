/**
 * Data Apps view and deprecation inside a real VS Code against a sandbox started here. The only
 * replaced answers are input boxes and the modal's button; the sandbox's counters prove whether a
 * deprecate request was sent.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { ScrapedeckTestApi } from '../../src/extension';
import {
  answerInputs,
  getApi,
  type InputAnswer,
  labelOf,
  pointAtSandbox,
  recordMessages,
  replaceUi,
  type SandboxSession,
  signInWithApiKey,
  signInWithPassword,
  tooltipText,
} from './viewsHarness';

const DEPRECATE_ROUTE = 'POST /datahub/v1/data-apps/{app_id}/deprecate';

describe('Data Apps view and deprecation (real VS Code, sandbox)', () => {
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  const deprecateCalls = () => session.sandbox.stats.byRoute[DEPRECATE_ROUTE] ?? 0;
  const appNode = async (ref: string) => {
    const [namespace, name] = ref.split('/');
    const ns = (await api.views.apps.getChildren()).find((n) => labelOf(n) === namespace);
    assert.ok(ns, `namespace ${namespace ?? ''} shown`);
    const node = (await api.views.apps.getChildren(ns)).find((n) => labelOf(n) === name);
    assert.ok(node, `app ${ref} shown`);
    return node;
  };
  const add = async (ref: string) => {
    const { restore } = answerInputs(api, [ref]);
    try {
      return await vscode.commands.executeCommand<string | undefined>('scrapedeck.apps.add');
    } finally {
      restore();
    }
  };
  /**
   * Runs the deprecate command on a node with the modal answered by `answer` and the input boxes
   * that follow answered by `inputs` (by default, when the modal was accepted: the typed reference).
   */
  const deprecate = async (
    ref: string,
    answer: string | undefined,
    inputs: InputAnswer[] = answer === 'Deprecate…' ? [ref] : [],
  ) => {
    const modals: { message: string; detail: string; buttons: string[] }[] = [];
    const restore = replaceUi(api, {
      showModalWarning: (message, detail, action, keep) => {
        modals.push({ message, detail, buttons: [action, keep] });
        return Promise.resolve(answer);
      },
    });
    const boxes = answerInputs(api, inputs);
    try {
      const outcome = await vscode.commands.executeCommand<string>('scrapedeck.apps.deprecate', await appNode(ref));
      return { outcome, modals, asked: boxes.asked };
    } finally {
      boxes.restore();
      restore();
    }
  };

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    await signInWithApiKey(api, session.account('ada').apiKey);
  });

  after(async () => {
    await session.dispose();
  });

  it('starts empty (the "Add Data App…" welcome shows), then tracks added apps grouped by namespace', async () => {
    assert.deepEqual(await api.views.apps.getChildren(), []);
    assert.equal(await add('ada/price-tracker'), 'ada/price-tracker');
    assert.equal(await add('ada/news-digest'), 'ada/news-digest');
    assert.equal(await add('grace/review-miner'), 'grace/review-miner');
    const namespaces = await api.views.apps.getChildren();
    assert.deepEqual(namespaces.map(labelOf), ['ada', 'grace']);
    assert.deepEqual((await api.views.apps.getChildren(namespaces[0])).map(labelOf), ['news-digest', 'price-tracker']);
    assert.equal((await appNode('ada/price-tracker')).contextValue, 'app deprecatable');
  });

  it('rejects a malformed reference and a duplicate in the input box', async () => {
    const { asked, restore } = answerInputs(api, [undefined]);
    try {
      await vscode.commands.executeCommand('scrapedeck.apps.add');
    } finally {
      restore();
    }
    const validate = asked[0]?.validateInput;
    assert.ok(validate);
    assert.match(String(await validate('nonsense')), /namespace\/name/);
    assert.match(String(await validate('ada/price-tracker')), /already tracked/);
    assert.equal(await validate('ada/lead-finder'), undefined);
  });

  it('declining the modal sends nothing', async () => {
    const before = deprecateCalls();
    for (const answer of [undefined, 'Keep the App', 'deprecate']) {
      const { outcome, modals } = await deprecate('ada/price-tracker', answer);
      assert.equal(outcome, 'declined');
      assert.equal(modals.length, 1);
    }
    assert.equal(deprecateCalls(), before, 'no deprecate request');
    assert.equal((await appNode('ada/price-tracker')).contextValue, 'app deprecatable');
  });

  it('Enter alone never deprecates: after the modal the reference must be typed; Escape or another name sends nothing', async () => {
    const before = deprecateCalls();
    for (const typed of [undefined, '', 'ada/price-tracke', 'ada/news-digest']) {
      const { outcome, asked } = await deprecate('ada/price-tracker', 'Deprecate…', [typed]);
      assert.equal(outcome, 'declined', `typed ${JSON.stringify(typed)}`);
      assert.equal(asked.length, 1);
    }
    const { asked } = await deprecate('ada/price-tracker', 'Deprecate…', [undefined]);
    const box = asked[0];
    assert.ok(box);
    assert.match(box.title ?? '', /ada\/price-tracker/);
    assert.ok(await box.validateInput?.(''), 'an empty box cannot be accepted with Enter');
    assert.ok(await box.validateInput?.('ada/price'), 'nor a part of the name');
    assert.equal(await box.validateInput?.('ada/price-tracker'), undefined);
    assert.equal(deprecateCalls(), before, 'no deprecate request');
    assert.equal((await appNode('ada/price-tracker')).contextValue, 'app deprecatable');
  });

  it('the modal says what deprecation means and offers exactly "Deprecate…" and "Keep the App" (no second Cancel)', async () => {
    const { modals } = await deprecate('ada/price-tracker', undefined);
    const modal = modals[0];
    assert.ok(modal);
    assert.deepEqual(modal.buttons, ['Deprecate…', 'Keep the App']);
    assert.match(modal.message, /ada\/price-tracker/);
    for (const phrase of [
      /no longer maintained/,
      /leaves market search/,
      /releases .* rejected/,
      /Runs .* still allowed/,
      /readable/,
      /Supply is not cut/,
      /undeprecate/,
    ]) {
      assert.match(modal.detail, phrase);
    }
  });

  it('accepting deprecates: one request, the node shows status and version, missing secrets are listed', async () => {
    const before = deprecateCalls();
    const { messages, stop } = recordMessages(api);
    let outcome: string;
    try {
      ({ outcome } = await deprecate('ada/price-tracker', 'Deprecate…'));
    } finally {
      stop();
    }
    assert.equal(outcome, 'deprecated');
    assert.equal(deprecateCalls(), before + 1);
    const node = await appNode('ada/price-tracker');
    assert.equal(node.contextValue, 'app deprecated');
    assert.equal(node.description, 'deprecated · v1.2.3');
    assert.match(tooltipText(node), /PROXY_TOKEN, SLACK_WEBHOOK/);
    assert.ok(
      messages.some(
        (m) =>
          m.level === 'warning' &&
          m.text === 'ada/price-tracker is deprecated, but these secrets are missing: PROXY_TOKEN, SLACK_WEBHOOK',
      ),
      JSON.stringify(messages),
    );
    // Remembered in globalState: the record is what the provider reads back.
    assert.equal(api.views.apps.stateOf('ada/price-tracker').kind, 'deprecated');
  });

  it('an app without releases reads "no version"; deprecating it twice is harmless', async () => {
    const { messages, stop } = recordMessages(api);
    try {
      assert.equal((await deprecate('ada/news-digest', 'Deprecate…')).outcome, 'deprecated');
      // The palette path: deprecate again by ref (the menu hides it once deprecated).
      const restore = replaceUi(api, { showModalWarning: () => Promise.resolve('Deprecate…') });
      const typed = answerInputs(api, ['ada/news-digest']);
      try {
        assert.equal(
          await vscode.commands.executeCommand('scrapedeck.apps.deprecate', 'ada/news-digest'),
          'deprecated',
        );
      } finally {
        typed.restore();
        restore();
      }
    } finally {
      stop();
    }
    assert.equal((await appNode('ada/news-digest')).description, 'deprecated · no version');
    const infos = messages.filter((m) => m.level === 'info' && m.text.startsWith('ada/news-digest is deprecated'));
    assert.equal(infos.length, 2);
  });

  it('an app the hub says it does not have (for this account): 404 explained with its request ID, marked unknown, no Deprecate', async () => {
    const { messages, stop } = recordMessages(api);
    try {
      assert.equal((await deprecate('grace/review-miner', 'Deprecate…')).outcome, 'not-found');
    } finally {
      stop();
    }
    const error = messages.find((m) => m.level === 'error');
    assert.equal(
      error?.text,
      'App grace/review-miner was not found, or you are not its author (only the author can deprecate).',
    );
    assert.deepEqual(error?.buttons, ['Copy Request ID']);
    const node = await appNode('grace/review-miner');
    assert.equal(node.contextValue, 'app unknown', 'no "deprecatable": the menus offer no Deprecate');
    assert.equal(node.description, 'not found by the hub');
    assert.match(tooltipText(node), /Request ID: /);
    // The request id in the tooltip is one click from the clipboard.
    const link = /\(command:scrapedeck\.copyRequestId\?([^)\s]+)\)/.exec((node.tooltip as vscode.MarkdownString).value);
    assert.ok(link?.[1], 'a Copy link next to the request id');
    const [id] = JSON.parse(decodeURIComponent(link[1])) as string[];
    assert.ok(id);
    await vscode.commands.executeCommand('scrapedeck.copyRequestId', id);
    assert.equal(await vscode.env.clipboard.readText(), id);
    await vscode.commands.executeCommand('scrapedeck.copyRequestId', { not: 'an id' }); // ignored, not thrown
    assert.equal(await vscode.env.clipboard.readText(), id);

    // By reference (palette, link): refused without a modal or a request.
    const before = deprecateCalls();
    const modal = replaceUi(api, { showModalWarning: () => Promise.reject(new Error('no modal expected')) });
    try {
      assert.equal(
        await vscode.commands.executeCommand('scrapedeck.apps.deprecate', 'grace/review-miner'),
        'not-found',
      );
    } finally {
      modal();
    }
    assert.equal(deprecateCalls(), before);
  });

  it('an app added without a check is marked as not checked; adding it again asks the hub again', async () => {
    await vscode.commands.executeCommand('scrapedeck.apps.remove', await appNode('grace/review-miner'));
    assert.equal(await add('grace/review-miner'), 'grace/review-miner');
    const node = await appNode('grace/review-miner');
    assert.equal(node.contextValue, 'app deprecatable');
    assert.match(tooltipText(node), /Not checked with the hub: the service cannot look an app up/);
  });

  it('Stop Tracking removes an added app; one from settings says where to remove it', async () => {
    assert.equal(
      await vscode.commands.executeCommand('scrapedeck.apps.remove', await appNode('grace/review-miner')),
      true,
    );
    assert.ok(!(await api.views.apps.getChildren()).some((n) => labelOf(n) === 'grace'));

    await vscode.workspace
      .getConfiguration('scrapedeck')
      .update('trackedApps', ['linus/catalog-sync'], vscode.ConfigurationTarget.Global);
    const fromSettings = await appNode('linus/catalog-sync');
    assert.equal(fromSettings.description, '(from settings)');
    const answers: string[] = [];
    const restore = replaceUi(api, {
      showInformationMessage: (message) => {
        answers.push(message);
        return Promise.resolve(undefined);
      },
    });
    try {
      assert.equal(await vscode.commands.executeCommand('scrapedeck.apps.remove', fromSettings), false);
    } finally {
      restore();
    }
    assert.match(answers[0] ?? '', /scrapedeck\.trackedApps setting/);
    assert.ok(await appNode('linus/catalog-sync'));
  });

  it('a password sign-in with a bad hub key: 401 explained with "Set API Key", the app stays tracked', async () => {
    await vscode.commands.executeCommand('scrapedeck.signOut');
    await signInWithPassword(api, 'ada', session.account('ada').password);
    // The tracked apps belong to the hub, not to the sign-in: still there.
    await add('ada/lead-finder');
    const before = deprecateCalls();
    const { messages, stop } = recordMessages(api);
    // The modal's answer, the typed reference, then the hub key the extension asks for after a password sign-in.
    let outcome: string;
    let asked: { title?: string }[];
    try {
      ({ outcome, asked } = await deprecate('ada/lead-finder', 'Deprecate…', [
        'ada/lead-finder',
        'not-a-valid-hub-key',
      ]));
    } finally {
      stop();
    }
    assert.equal(outcome, 'unauthorized');
    assert.equal(asked.length, 2, 'the typed reference, then once the hub key');
    assert.equal(asked[1]?.title, 'Data-App Hub API Key');
    assert.equal(deprecateCalls(), before + 1);
    const error = messages.find((m) => m.level === 'error');
    assert.match(error?.text ?? '', /hub API key is missing or invalid/);
    assert.deepEqual(error?.buttons, ['Set API Key']);
    const node = await appNode('ada/lead-finder');
    assert.equal(node.contextValue, 'app deprecatable');
    assert.equal(api.account.account?.method, 'password', 'a hub 401 does not sign the user out');
  });
});
