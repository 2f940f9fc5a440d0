/**
 * Why a file was refused, in one whole sentence per reason (so a translation never embeds an
 * English fragment): the pull's and the export's words for `UnusableFileError`,
 * `UnsafeFileError`, a damaged pull record and another task's pending batch.
 */
import * as path from 'node:path';

import * as vscode from 'vscode';

import { UnsafeFileError } from '../../platform/files/safeFiles';
import { plainText } from '../../platform/plainText';
import { SQLITE_TIME_LIMIT_MS } from '../sqlite/sqliteThread';
import { OtherTaskPendingError } from './fileSink';
import { DamagedJournalError } from './pullJournal';
import { UnusableFileError } from './unusableFile';

const t = vscode.l10n.t;

export type Refusal = UnusableFileError | UnsafeFileError | DamagedJournalError | OtherTaskPendingError;

/** For Pull New Rows: the file cannot take the task's new rows, and nothing was pulled or changed. */
export function refusalText(error: Refusal, taskName: string, fileName: string): string {
  // The task's name comes from the service or a pull record, the file's from the workspace.
  const task = plainText(taskName);
  const file = plainText(fileName);
  if (error instanceof UnsafeFileError) {
    const at = plainText(path.basename(error.at));
    switch (error.reason) {
      case 'link':
        return t(
          'Scrapedeck cannot write the new rows of “{0}” to {1}: {2} is a symbolic link, and Scrapedeck never writes through a link. Nothing was pulled or changed.',
          task,
          file,
          at,
        );
      case 'outside':
        return t(
          'Scrapedeck cannot write the new rows of “{0}” to {1}: the folder {2} is a symbolic link, so the file would be outside the workspace folder. Nothing was pulled or changed.',
          task,
          file,
          at,
        );
      case 'hard-link':
        return t(
          'Scrapedeck cannot write the new rows of “{0}” to {1}: it has other names (hard links), and writing to it would change those files too. Nothing was pulled or changed.',
          task,
          file,
        );
      case 'not-file':
        return t(
          'Scrapedeck cannot write the new rows of “{0}” to {1}: {2} is not a regular file. Nothing was pulled or changed.',
          task,
          file,
          at,
        );
    }
  }
  if (error instanceof DamagedJournalError) {
    return t(
      'Scrapedeck cannot write the new rows of “{0}” to {1}: the record of an interrupted pull beside it ({2}) cannot be read. Nothing was pulled or changed.',
      task,
      file,
      plainText(path.basename(error.journal)),
    );
  }
  if (error instanceof OtherTaskPendingError) {
    return t(
      'Scrapedeck cannot write the new rows of “{0}” to {1} yet: an interrupted pull of “{2}” into it must be completed first (pull the new rows of “{2}” again). Nothing was pulled or changed.',
      task,
      file,
      plainText(error.taskName),
    );
  }
  switch (error.reason) {
    case 'folder':
      return t(
        'Scrapedeck cannot append the new rows of “{0}” to {1}: it is a folder. Nothing was pulled or changed.',
        task,
        file,
      );
    case 'not-text':
      return t(
        'Scrapedeck cannot append the new rows of “{0}” to {1}: it is not UTF-8 text. Nothing was pulled or changed.',
        task,
        file,
      );
    case 'no-header':
      return t(
        'Scrapedeck cannot append the new rows of “{0}” to {1}: it does not start with a CSV header line. Nothing was pulled or changed.',
        task,
        file,
      );
    case 'changed':
      return t(
        'Scrapedeck cannot complete the interrupted pull of “{0}” into {1}: the file was changed after it stopped, so Scrapedeck cannot tell which rows are in it. Nothing was pulled or changed.',
        task,
        file,
      );
    case 'not-sqlite':
      return t(
        'Scrapedeck cannot write the new rows of “{0}” to {1}: it is not an SQLite database Scrapedeck can write to. Nothing was pulled or changed.',
        task,
        file,
      );
    case 'schema':
      return t(
        'Scrapedeck cannot write the new rows of “{0}” to {1}: the database holds a trigger, a view, a virtual table or a table named like Scrapedeck’s own, which could drop or change the rows a pull writes; remove it from the database or choose another file. Nothing was pulled or changed.',
        task,
        file,
      );
    case 'foreign-log':
      return t(
        'Scrapedeck cannot write the new rows of “{0}” to {1}: a write-ahead log or journal (-wal or -journal) that no pull of Scrapedeck left is beside it, and SQLite would read it back into the database; if an SQLite program of yours left it, open and close the database in that program, otherwise delete that file. Nothing was pulled or changed.',
        task,
        file,
      );
    case 'locked':
      return t(
        'Scrapedeck cannot write the new rows of “{0}” to {1}: a lock that no pull of Scrapedeck made is beside it ({2}); if no program is writing to the database, delete {2} and pull again. Nothing was pulled or changed.',
        task,
        file,
        `${path.basename(file)}.lock`,
      );
    case 'in-use':
      return t(
        'Scrapedeck cannot write the new rows of “{0}” to {1} now: another VS Code window is writing to it; pull again when it is done. Nothing was pulled or changed.',
        task,
        file,
      );
    case 'slow':
      return t(
        'Scrapedeck stopped writing the new rows of “{0}” to {1}: one step of SQLite took longer than {2} seconds, which no database Scrapedeck can vouch for needs, so the rows of that step were not marked exported and the next pull gets them again.',
        task,
        file,
        String(SQLITE_TIME_LIMIT_MS / 1000),
      );
    case 'damaged-record':
      return t(
        'Scrapedeck cannot write the new rows of “{0}” to {1}: its record of an interrupted pull (the table _scrapedeck_pending) is not one Scrapedeck writes; delete that table’s row for this task, or choose another file. Nothing was pulled or changed.',
        task,
        file,
      );
  }
}

/** For an export: the chosen file may not be written, and nothing was. */
export function exportRefusalText(error: UnsafeFileError, taskName: string, fileName: string): string {
  const task = plainText(taskName);
  const file = plainText(fileName);
  const at = plainText(path.basename(error.at));
  switch (error.reason) {
    case 'link':
      return t(
        'Scrapedeck cannot export the data of “{0}” to {1}: {2} is a symbolic link, and Scrapedeck never writes through a link. Nothing was written.',
        task,
        file,
        at,
      );
    case 'outside':
      return t(
        'Scrapedeck cannot export the data of “{0}” to {1}: the folder {2} is a symbolic link, so the file would be outside the workspace folder. Nothing was written.',
        task,
        file,
        at,
      );
    case 'hard-link':
      return t(
        'Scrapedeck cannot export the data of “{0}” to {1}: it has other names (hard links), and replacing it would leave those files behind. Nothing was written.',
        task,
        file,
      );
    case 'not-file':
      return t(
        'Scrapedeck cannot export the data of “{0}” to {1}: {2} is not a regular file. Nothing was written.',
        task,
        file,
        at,
      );
  }
}
