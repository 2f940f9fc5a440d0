/**
 * A task's URL list as a document in a real VS Code, against a sandbox: which loop, the title,
 * invalid URLs marked on their lines with nothing sent, a save read back from the service, a
 * conflicting save shown side by side; then Duplicate Task, drag-and-drop moves, and the account
 * boundary (another account's list is closed and refused).
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { TaskActions } from '../../src/api/schemas/taskOpsSchemas';
import type { ScrapedeckTestApi } from '../../src/extension';
import { groupRow, type Row, type RunsSession, startRunsSession, taskRow, taskRows } from './runsHarness';
import {
  answerInputs,
  answerPicks,
  getApi,
  KEEP_VALUE,
  labelOf,
  recordMessages,
  replaceUi,
  signInWithApiKey,
  waitFor,
} from './viewsHarness';

const GROUP = 'Lead generation';
const OTHER_GROUP = 'News & media';

type Loop = TaskActions['actions'][number];

describe('URL lists, duplicate and move (real VS Code, sandbox)', function () {
  this.timeout(120_000);
  let api: ScrapedeckTestApi;
  let session: RunsSession;
  let severalLoops: { task: Row['task']; loops: Loop[] };
  let oneLoop: { task: Row['task']; loop: Loop };
  let doc: vscode.TextDocument;

  const updates = () => session.sandbox.stats.byRoute['POST /task/updateLoopItems'] ?? 0;
  const itemsAtService = async (taskId: string, actionId: string) =>
    (await session.client('ada').getActions([taskId])).data[0]?.actions.find((a) => a.actionId === actionId)?.loopItems;
  const setText = async (text: string) => {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(edit));
  };

  before(async () => {
    api = await getApi();
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    session = await startRunsSession(api);
    await signInWithApiKey(api, session.apiKey('ada'));
    const rows = await taskRows(api, GROUP);
    const actions = (await session.client('ada').getActions(rows.map((r) => r.task.taskId))).data;
    const loopsOf = (taskId: string) =>
      actions.find((a) => a.taskId === taskId)?.actions.filter((a) => a.loopItems !== null) ?? [];
    // A task with a URL list and a text list, so the picker names both kinds.
    const several = rows.find(
      (r) =>
        loopsOf(r.task.taskId).length >= 2 &&
        loopsOf(r.task.taskId).some((l) => l.loopType === 'URLList') &&
        loopsOf(r.task.taskId).some((l) => l.loopType === 'TextList'),
    );
    const one = rows.find(
      (r) => loopsOf(r.task.taskId).length === 1 && loopsOf(r.task.taskId)[0]?.loopType === 'URLList',
    );
    assert.ok(several && one, 'the seed has tasks with one and with several loops');
    severalLoops = { task: several.task, loops: loopsOf(several.task.taskId) };
    oneLoop = { task: one.task, loop: loopsOf(one.task.taskId)[0] as Loop };
  });

  after(async () => {
    await vscode.commands
      .executeCommand('workbench.action.revertAndCloseActiveEditor')
      .then(undefined, () => undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await session?.dispose();
  });

  it("Edit URL or Text List asks which loop when the task has several, naming each one's kind, and opens it named after the task and the loop", async () => {
    let offered: string[] = [];
    let kinds: (string | undefined)[] = [];
    const urlLoop = severalLoops.loops.find((l) => l.loopType === 'URLList') as Loop;
    const restore = replaceUi(api, {
      showQuickPick: (items) =>
        Promise.resolve(items).then((list) => {
          offered = list.map((i) => i.label);
          kinds = list.map((i) => i.description);
          return list.find((i) => (i as unknown as { loop: Loop }).loop.actionId === urlLoop.actionId);
        }),
    });
    let uri: vscode.Uri | undefined;
    try {
      uri = (await vscode.commands.executeCommand(
        'scrapedeck.runs.editUrlList',
        await taskRow(api, GROUP, severalLoops.task.taskId),
      )) as vscode.Uri | undefined;
    } finally {
      restore();
    }
    assert.ok(uri);
    assert.equal(offered.length, severalLoops.loops.length);
    // In words, never the service's raw type ("TextList").
    assert.deepEqual(
      kinds,
      severalLoops.loops.map((l) => (l.loopType === 'URLList' ? 'URL list' : 'Text list')),
    );
    assert.equal(uri.scheme, 'scrapedeck');
    const name = uri.path.split('/').pop() ?? '';
    // VS Code shows the whole address in its own messages: it holds the list's name and nothing else.
    assert.equal(uri.toString(true), `scrapedeck:/${name}`);
    assert.ok(
      !uri.toString().includes(severalLoops.task.taskId) && !uri.toString().includes(urlLoop.actionId),
      uri.toString(),
    );
    assert.ok(name.includes(severalLoops.task.taskName) && name.includes(urlLoop.name ?? urlLoop.actionId), name);
    await waitFor('the editor', () => vscode.window.activeTextEditor?.document.uri.toString() === uri?.toString());
    doc = (vscode.window.activeTextEditor as vscode.TextEditor).document;
    assert.equal(doc.getText(), `${(urlLoop.loopItems ?? []).join('\n')}\n`);
  });

  it('a list is a “Scrapedeck List” document: where auto save is on, a list with lines to fix is not saved until they are fixed', async () => {
    assert.equal(doc.languageId, 'scrapedeck-list');
    assert.equal(
      vscode.workspace
        .getConfiguration('files', { uri: doc.uri, languageId: doc.languageId })
        .get('autoSaveWhenNoErrors'),
      true,
    );
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await files.update('autoSaveDelay', 1000, vscode.ConfigurationTarget.Global);
    // Every save VS Code tries reaches the list's file system; one that fails shows VS Code's
    // "Failed to save … Unable to write file '<address>'".
    const loops = api.runs.loops;
    const writeFile = loops.writeFile.bind(loops);
    let tried = 0;
    loops.writeFile = (uri, content) => {
      tried++;
      return writeFile(uri, content);
    };
    try {
      const sent = updates();
      await setText(`https://ok.example/auto\nno-scheme.example/auto\n`);
      await waitFor('the diagnostic', () => vscode.languages.getDiagnostics(doc.uri).length === 1);
      await new Promise((r) => setTimeout(r, 2500));
      assert.equal(tried, 0, 'no save tried while a line needs fixing');
      assert.equal(updates(), sent, 'nothing sent');
      assert.ok(doc.isDirty);
      await setText(`https://ok.example/auto\n`);
      await waitFor('the auto save', () => !doc.isDirty, 15_000);
      assert.equal(updates(), sent + 1, 'saved by itself once fixed');
    } finally {
      loops.writeFile = writeFile;
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
      await files.update('autoSaveDelay', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('an invalid URL is marked on its line and the save sends nothing; the text stays as typed', async () => {
    const ref = api.runs.addresses.refOf(doc.uri);
    const before = await itemsAtService(severalLoops.task.taskId, ref?.actionId ?? '');
    await setText(`https://ok.example/a\nshop.example.com/no-scheme\nhttps://ok.example/b\n`);
    await waitFor('the diagnostic', () => vscode.languages.getDiagnostics(doc.uri).length === 1);
    const [d] = vscode.languages.getDiagnostics(doc.uri);
    assert.equal(d?.range.start.line, 1);
    assert.equal(d?.severity, vscode.DiagnosticSeverity.Error);
    const sent = updates();
    assert.equal(await doc.save(), false);
    assert.equal(updates(), sent, 'nothing sent');
    assert.ok(doc.isDirty, 'nothing typed is lost');
    assert.deepEqual(await itemsAtService(severalLoops.task.taskId, ref?.actionId ?? ''), before);
  });

  it("Ctrl+S on a list with bad lines (Save URL List): one sentence with the document's name and the count, not its address; nothing sent; the lines stay underlined", async () => {
    const ref = api.runs.addresses.refOf(doc.uri);
    await vscode.window.showTextDocument(doc);
    await setText(`https://ok.example/a\nno-scheme.example/1\nhttps://ok.example/b\nalso bad\n`);
    await waitFor('the diagnostics', () => vscode.languages.getDiagnostics(doc.uri).length === 2);
    const sent = updates();
    const { messages, stop } = recordMessages(api);
    try {
      assert.equal(await vscode.commands.executeCommand('scrapedeck.runs.saveList'), false);
    } finally {
      stop();
    }
    const name = doc.uri.path.split('/').pop() ?? '';
    assert.deepEqual(
      messages.map((m) => [m.level, m.text, m.buttons]),
      [
        [
          'warning',
          `“${name}” was not saved: 2 lines need fixing first (they are underlined); nothing was sent.`,
          ['Show Problems'],
        ],
      ],
    );
    assert.ok(name.includes(severalLoops.task.taskName));
    for (const m of messages)
      assert.ok(
        !m.text.includes('scrapedeck:') &&
          !m.text.includes(ref?.actionId ?? '-') &&
          !m.text.includes(severalLoops.task.taskId),
        'no address, no ids',
      );
    assert.equal(updates(), sent, 'nothing sent');
    assert.ok(doc.isDirty, 'nothing typed is lost');
    assert.equal(vscode.languages.getDiagnostics(doc.uri).length, 2, 'the lines stay underlined');
  });

  it('thousands of bad lines: 100 are marked, and one more counts the rest', async () => {
    await setText(`${Array.from({ length: 3000 }, (_, i) => `bad line ${i}`).join('\n')}\n`);
    await waitFor('the marks', () => vscode.languages.getDiagnostics(doc.uri).length === 101, 20_000);
    const marks = vscode.languages.getDiagnostics(doc.uri);
    assert.equal(marks[100]?.message, '2900 more lines need fixing from here on; only the first 100 are marked.');
    assert.equal(marks[100]?.range.start.line, 100);
  });

  it('a valid list is saved and read back from the service', async () => {
    const mine = ['https://shop.example.com/new/1', 'https://shop.example.com/new/2?q=Zürich'];
    await setText(`${mine.join('\n')}\n`);
    await waitFor('no diagnostics', () => vscode.languages.getDiagnostics(doc.uri).length === 0);
    assert.equal(await doc.save(), true);
    assert.equal(doc.isDirty, false);
    assert.deepEqual(
      await itemsAtService(severalLoops.task.taskId, api.runs.addresses.refOf(doc.uri)?.actionId ?? ''),
      mine,
    );
  });

  it('saving after someone else changed the list shows both side by side and sends nothing; saving again replaces theirs', async () => {
    const q = api.runs.addresses.refOf(doc.uri);
    const actionId = q?.actionId ?? '';
    const theirs = ['https://someone.example/else'];
    await session.client('ada').updateLoopItems({
      taskId: severalLoops.task.taskId,
      actionId,
      loopType: q?.loopType ?? '',
      loopItems: theirs,
      isAppend: false,
    });
    const mine = ['https://shop.example.com/new/1', 'https://shop.example.com/new/3'];
    await setText(`${mine.join('\n')}\n`);
    const sent = updates();
    assert.equal(await doc.save(), false);
    assert.equal(updates(), sent);
    assert.deepEqual(await itemsAtService(severalLoops.task.taskId, actionId), theirs, 'their change stands');
    let diff: vscode.TabInputTextDiff | undefined;
    await waitFor('the side-by-side comparison', () => {
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
      diff = tabs
        .map((t) => t.input)
        .find(
          (i): i is vscode.TabInputTextDiff =>
            i instanceof vscode.TabInputTextDiff && i.modified.toString() === doc.uri.toString(),
        );
      return diff !== undefined;
    });
    assert.ok(diff);
    assert.ok(
      api.runs.addresses.refOf(diff.original)?.snapshot !== undefined,
      "the service's list is a read-only copy",
    );
    assert.match(diff.original.path, /\(on the service\)\.txt$/);
    assert.equal(diff.original.query, '', 'its address holds no ids either');
    assert.equal((await vscode.workspace.openTextDocument(diff.original)).getText(), `${theirs.join('\n')}\n`);
    assert.ok(doc.isDirty);
    assert.equal(await doc.save(), true, 'seen the differences, a second save replaces theirs');
    assert.deepEqual(await itemsAtService(severalLoops.task.taskId, actionId), mine);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a task with one list opens it without asking', async () => {
    const restore = replaceUi(api, { showQuickPick: () => Promise.reject(new Error('no question expected')) });
    try {
      const uri = (await vscode.commands.executeCommand(
        'scrapedeck.runs.editUrlList',
        await taskRow(api, GROUP, oneLoop.task.taskId),
      )) as vscode.Uri;
      assert.match(uri.path, new RegExp(oneLoop.task.taskName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    } finally {
      restore();
    }
  });

  it('Duplicate Task adds the copy to the same group', async () => {
    const source = (await taskRows(api, GROUP))[0] as Row;
    const copy = (await vscode.commands.executeCommand('scrapedeck.tasks.duplicate', source)) as
      { taskId: string; taskName: string } | undefined;
    assert.ok(copy);
    assert.equal(copy.taskName, `${source.task.taskName} (copy)`);
    await waitFor('the copy in the tree', async () =>
      (await taskRows(api, GROUP)).some((r) => r.task.taskId === copy.taskId),
    );
  });

  it("a copy dropped on a closed group shows in that group's count at once, and leaves its own group's (issue 32)", async () => {
    const dnd = api.runs.dragAndDrop;
    assert.ok(dnd);
    // Drafts was listed once (its count, "0 tasks", is known) and is closed again.
    await api.views.tasks.getChildren(await groupRow(api, 'Drafts'));
    const countOf = async (name: string): Promise<string> =>
      String((await groupRow(api, name)).description ?? '').split(' · ')[0] ?? '';
    assert.equal(await countOf('Drafts'), '0 tasks');
    // As a new user did: duplicate a task, then drag the copy onto Drafts.
    const source = (await taskRows(api, GROUP)).find(
      (r) => r.task.taskId !== oneLoop.task.taskId && r.task.taskId !== severalLoops.task.taskId,
    ) as Row;
    const copy = (await vscode.commands.executeCommand('scrapedeck.tasks.duplicate', source)) as
      { taskId: string; taskName: string } | undefined;
    assert.ok(copy);
    await waitFor('the copy in its group', async () =>
      (await taskRows(api, GROUP)).some((r) => r.task.taskId === copy.taskId),
    );
    const copyRow = await taskRow(api, GROUP, copy.taskId);
    const before = Number.parseInt(await countOf(GROUP), 10);
    const drag = new vscode.DataTransfer();
    await dnd.handleDrag([copyRow as never], drag);
    const moved = await dnd.drop((await groupRow(api, 'Drafts')) as never, drag);
    assert.deepEqual(moved?.moved, [copy.taskId]);
    // The first listing after the drop already counts it: no wait for Drafts to be opened.
    assert.equal(await countOf('Drafts'), '1 task');
    assert.equal(await countOf(GROUP), `${before - 1} tasks`);
  });

  it('drag and drop: one task moves at once; several ask first, and declining moves nothing', async () => {
    const dnd = api.runs.dragAndDrop;
    assert.ok(dnd);
    const target = await groupRow(api, OTHER_GROUP);
    // Not the tasks whose lists the other steps open (the last step opens one in this group).
    const [a, b, c] = (await taskRows(api, GROUP)).filter(
      (r) => r.task.taskId !== oneLoop.task.taskId && r.task.taskId !== severalLoops.task.taskId,
    );
    assert.ok(a && b && c);
    const asked: string[][] = [];
    let answer: 'move' | 'keep' = 'keep';
    const restore = replaceUi(api, {
      showModalWarning: (message, _detail, action, keep) => {
        asked.push([message, action, keep]);
        return Promise.resolve(answer === 'move' ? action : undefined);
      },
    });
    try {
      const one = new vscode.DataTransfer();
      await dnd.handleDrag([a as never], one);
      const moved = await dnd.drop(target as never, one);
      assert.deepEqual(moved?.moved, [a.task.taskId]);
      assert.equal(asked.length, 0, 'one task: no question');

      const two = new vscode.DataTransfer();
      await dnd.handleDrag([b as never, c as never], two);
      const declined = await dnd.drop(target as never, two);
      assert.equal(declined?.declined, true);
      assert.deepEqual(asked[0], [`Move 2 tasks to “${OTHER_GROUP}”?`, 'Move 2 Tasks', 'Keep Them Where They Are']);
      answer = 'move';
      const both = await dnd.drop(target as never, two);
      assert.deepEqual(both?.moved, [b.task.taskId, c.task.taskId]);
    } finally {
      restore();
    }
    const groupId = (target as unknown as { group: { taskGroupId: string } }).group.taskGroupId;
    const there = (await session.client('ada').searchTasks(groupId)).data.map((t) => t.taskId);
    for (const id of [a.task.taskId, b.task.taskId, c.task.taskId])
      assert.ok(there.includes(id), `${id} moved at the service`);
    await waitFor(
      'the tree to show them in their new group',
      async () =>
        (await taskRows(api, OTHER_GROUP)).filter((r) => [a, b, c].some((x) => x.task.taskId === r.task.taskId))
          .length === 3,
    );
    assert.ok((await taskRows(api, GROUP)).every((r) => ![a, b, c].some((x) => x.task.taskId === r.task.taskId)));
  });

  it('Move to Group… (issue 48): from the menu the selected tasks move together; from the palette a task, then a group, is picked', async () => {
    const [d, e, f] = (await taskRows(api, GROUP)).filter(
      (r) => r.task.taskId !== oneLoop.task.taskId && r.task.taskId !== severalLoops.task.taskId,
    );
    assert.ok(d && e && f);
    const picks: { title: string; labels: string[] }[] = [];
    const modals: string[] = [];
    const restore = replaceUi(api, {
      showQuickPick: async <T extends vscode.QuickPickItem>(
        items: readonly T[] | Thenable<readonly T[]>,
        options: vscode.QuickPickOptions,
      ) => {
        const list = await items;
        picks.push({ title: options.title ?? '', labels: list.map((i) => i.label) });
        // The palette's task question first (items carry the task), then the group's.
        const task = list.find((i) => (i as { row?: { taskId?: string } }).row?.taskId === f.task.taskId);
        return task ?? list.find((i) => i.label === OTHER_GROUP);
      },
      showModalWarning: (message, _detail, action) => {
        modals.push(message);
        return Promise.resolve(action);
      },
    });
    try {
      // The context menu on d, with d and e selected: both move, after one question.
      const menu = await vscode.commands.executeCommand<{ moved: string[] }>('scrapedeck.tasks.moveToGroup', d, [d, e]);
      assert.deepEqual(menu?.moved, [d.task.taskId, e.task.taskId]);
      assert.equal(picks[0]?.title, 'Move 2 Tasks to…');
      assert.ok(picks[0]?.labels.includes(OTHER_GROUP) && !picks[0]?.labels.includes(GROUP), 'not their own group');
      assert.deepEqual(modals, [`Move 2 tasks to “${OTHER_GROUP}”?`]);
      // The command palette: no row, so it asks for the task, then the group.
      const palette = await vscode.commands.executeCommand<{ moved: string[] }>('scrapedeck.tasks.moveToGroup');
      assert.deepEqual(palette?.moved, [f.task.taskId]);
      assert.deepEqual(
        picks.slice(1).map((p) => p.title),
        ['Move a Task to Another Group (1/2)', `Move “${f.task.taskName}” to…`],
      );
      assert.equal(modals.length, 1, 'one task: no question');
    } finally {
      restore();
    }
    const groupId = ((await groupRow(api, OTHER_GROUP)) as unknown as { group: { taskGroupId: string } }).group
      .taskGroupId;
    const there = (await session.client('ada').searchTasks(groupId)).data.map((t) => t.taskId);
    for (const x of [d, e, f]) assert.ok(there.includes(x.task.taskId), `${x.task.taskName} moved at the service`);
    await waitFor(
      'the tree to show them in their new group',
      async () =>
        (await taskRows(api, OTHER_GROUP)).filter((r) => [d, e, f].some((x) => x.task.taskId === r.task.taskId))
          .length === 3,
    );
  });

  it('a task command from the palette (no row) asks which task, then acts on it; cancelled, it does nothing', async () => {
    const [g] = (await taskRows(api, GROUP)).filter((r) => r.task.taskId !== oneLoop.task.taskId);
    assert.ok(g);
    const titles: string[] = [];
    const told: string[] = [];
    let answer: string | undefined = g.task.taskId;
    const restore = replaceUi(api, {
      showQuickPick: async <T extends vscode.QuickPickItem>(
        items: readonly T[] | Thenable<readonly T[]>,
        options: vscode.QuickPickOptions,
      ) => {
        titles.push(options.title ?? '');
        return (await items).find((i) => (i as { row?: { taskId?: string } }).row?.taskId === answer);
      },
      showInformationMessage: (message: string) => {
        told.push(message);
        return Promise.resolve(undefined);
      },
    });
    try {
      const copy = await vscode.commands.executeCommand<{ taskId: string } | undefined>('scrapedeck.tasks.duplicate');
      assert.deepEqual(titles, ['Duplicate Task: which task?']);
      assert.ok(copy && copy.taskId !== g.task.taskId, 'the chosen task was duplicated');
      assert.ok(
        told.some((m) => m.startsWith(`Duplicated “${g.task.taskName}”`)),
        told.join(' | '),
      );
      answer = undefined;
      told.length = 0;
      const none = await vscode.commands.executeCommand('scrapedeck.runs.start');
      assert.equal(none, undefined);
      assert.deepEqual(titles, ['Duplicate Task: which task?', 'Start Run: which task?']);
      assert.deepEqual(told, [], 'a cancelled question says nothing more');
    } finally {
      restore();
    }
  });

  it('signing out closes the account’s lists; under another account they cannot be read', async () => {
    const uri = (await vscode.commands.executeCommand(
      'scrapedeck.runs.editUrlList',
      await taskRow(api, GROUP, oneLoop.task.taskId),
    )) as vscode.Uri;
    await vscode.commands.executeCommand('scrapedeck.signOut');
    await waitFor(
      'the list editor to close',
      () =>
        !vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'scrapedeck'),
    );
    await signInWithApiKey(api, session.apiKey('linus'));
    // Another account's list reads as a read-only placeholder: nothing of ada's list.
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    assert.match(text, /belongs to another Scrapedeck account/);
    // On short lines: one line of it ran off the editor's right edge (issue 48's walk).
    for (const line of text.split('\n')) assert.ok(line.length <= 72, `a line of ${line.length}: ${line}`);
    assert.ok(!(oneLoop.loop.loopItems ?? []).some((item) => text.includes(item)), text);
    assert.equal((await vscode.workspace.fs.stat(uri)).permissions, vscode.FilePermission.Readonly);
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('https://example.com/\n'))),
      /another Scrapedeck account/,
    );
    assert.equal(labelOf((await api.views.tasks.getChildren())[0] as vscode.TreeItem) !== GROUP, true);
    await vscode.commands.executeCommand('scrapedeck.signOut');
  });

  it("after Switch Account, View: Reopen Closed Editor brings back no item of the other account's list", async () => {
    await signInWithApiKey(api, session.apiKey('ada'));
    const uri = (await vscode.commands.executeCommand(
      'scrapedeck.runs.editUrlList',
      await taskRow(api, GROUP, oneLoop.task.taskId),
    )) as vscode.Uri;
    const items = oneLoop.loop.loopItems ?? [];
    assert.ok(
      items.length > 0 && items.some((item) => vscode.window.activeTextEditor?.document.getText().includes(item)),
      "ada's list is shown",
    );
    const changes: string[] = [];
    const listening = api.runs.loops.onDidChangeFile((events) => changes.push(...events.map((e) => e.uri.toString())));
    try {
      // Switch Account → Sign In with API Key → linus's key, the name kept.
      const picks = answerPicks(api, ['Sign In with API Key']);
      const boxes = answerInputs(api, [session.apiKey('linus'), KEEP_VALUE]);
      try {
        assert.equal(await vscode.commands.executeCommand<boolean>('scrapedeck.switchAccount'), true);
      } finally {
        boxes.restore();
        picks.restore();
      }
      // Closed here if the switch has not closed it yet: what is checked is what Reopen Closed Editor brings back.
      const listTabs = () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
      await vscode.window.tabGroups.close(listTabs());
      await waitFor('the list editor to close', () => listTabs().length === 0);
      assert.ok(changes.includes(uri.toString()), 'the list was announced as changed when the account changed');
      await vscode.commands.executeCommand('workbench.action.reopenClosedEditor');
      await waitFor(
        'the list to come back',
        () => vscode.window.activeTextEditor?.document.uri.toString() === uri.toString(),
      );
      await waitFor('the placeholder', () =>
        /belongs to another Scrapedeck account/.test(vscode.window.activeTextEditor?.document.getText() ?? ''),
      );
      const shown = vscode.window.activeTextEditor?.document.getText() ?? '';
      assert.ok(!items.some((item) => shown.includes(item)), `nothing of ada's list: ${shown}`);
      assert.equal(api.runs.diagnostics.get(uri).length, 0, 'the placeholder is not checked as a list');
    } finally {
      listening.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
