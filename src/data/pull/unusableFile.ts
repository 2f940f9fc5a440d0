/**
 * Why a file or database cannot take a pull's rows, shared by the CSV/JSON Lines appender and the
 * SQLite sink: `reason` is worded for the user by pullReplies.ts (l10n), `message` is the log's.
 */
export class UnusableFileError extends Error {
  override readonly name = 'UnusableFileError';
  constructor(
    readonly reason:
      | 'folder'
      | 'not-text'
      | 'no-header'
      | 'changed'
      | 'not-sqlite'
      | 'schema'
      | 'foreign-log'
      | 'locked'
      | 'in-use'
      | 'slow'
      | 'damaged-record',
    message: string,
  ) {
    super(message);
  }
}
