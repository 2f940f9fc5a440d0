/**
 * The run-finished notification's buttons (src/runs/runText.ts): short enough that a
 * notification shows them whole (issue 48's walk read "Browse This Run's D…"), with what they take
 * said in the message.
 */
import * as assert from 'node:assert/strict';

import { buttonsNote, noticeButtons, type Translate } from '../../src/runs/runText';

const english: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));

/** The longest label three buttons share a notification with uncut ("Open Analytics" is 14). */
const WHOLE = 14;

describe('runs: the finish notice’s buttons', () => {
  it('every button is short enough to show whole beside the others', () => {
    for (const [name, label] of Object.entries(noticeButtons(english)))
      assert.ok(label.length <= WHOLE, `${name}: “${label}” has ${label.length} characters`);
    const b = noticeButtons(english);
    assert.equal(new Set(Object.values(b)).size, 4, 'four different labels');
  });

  it('the message says which rows each data button takes', () => {
    assert.equal(
      buttonsNote(english, { browseRun: true, exportRun: true, exportData: false }),
      'Browse Rows and Export Rows take the rows of this run only.',
    );
    assert.equal(
      buttonsNote(english, { browseRun: false, exportRun: true, exportData: false }),
      'Export Rows writes the rows of this run only.',
    );
    assert.equal(
      buttonsNote(english, { browseRun: true, exportRun: false, exportData: true }),
      'Browse Rows shows the rows of this run only. Export Data writes all of the task’s rows.',
    );
    assert.equal(buttonsNote(english, { browseRun: false, exportRun: false, exportData: false }), '');
  });
});
