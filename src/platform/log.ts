/**
 * The one "Scrapedeck" LogOutputChannel. It is wrapped so every line written to it is also kept
 * in memory: the integration tests read that copy to prove no secret ever reached the channel
 * (the channel itself cannot be read back through the VS Code API).
 */
import * as vscode from 'vscode';

/** Enough for a long session and a whole test suite; older lines fall off the front. */
const MAX_KEPT_LINES = 20_000;

export interface ScrapedeckLog {
  readonly channel: vscode.LogOutputChannel;
  /** Every line appended so far (newest last), as written. */
  readonly lines: readonly string[];
}

export function createLog(name = 'Scrapedeck'): ScrapedeckLog & vscode.Disposable {
  const inner = vscode.window.createOutputChannel(name, { log: true });
  const lines: string[] = [];
  const keep = (level: string, message: string, args: readonly unknown[]): void => {
    const rest = args.map(format).join(' ');
    lines.push(`[${level}] ${message}${rest ? ` ${rest}` : ''}`);
    if (lines.length > MAX_KEPT_LINES) lines.splice(0, lines.length - MAX_KEPT_LINES);
  };

  const channel: vscode.LogOutputChannel = {
    get name() {
      return inner.name;
    },
    get logLevel() {
      return inner.logLevel;
    },
    onDidChangeLogLevel: inner.onDidChangeLogLevel,
    trace: (message, ...args) => {
      keep('trace', message, args);
      inner.trace(message, ...args);
    },
    debug: (message, ...args) => {
      keep('debug', message, args);
      inner.debug(message, ...args);
    },
    info: (message, ...args) => {
      keep('info', message, args);
      inner.info(message, ...args);
    },
    warn: (message, ...args) => {
      keep('warn', message, args);
      inner.warn(message, ...args);
    },
    error: (error, ...args) => {
      keep('error', format(error), args);
      inner.error(error, ...args);
    },
    append: (value) => {
      keep('append', value, []);
      inner.append(value);
    },
    appendLine: (value) => {
      keep('append', value, []);
      inner.appendLine(value);
    },
    replace: (value) => {
      keep('replace', value, []);
      inner.replace(value);
    },
    clear: () => inner.clear(),
    show: (columnOrPreserveFocus?: vscode.ViewColumn | boolean, preserveFocus?: boolean) => {
      if (typeof columnOrPreserveFocus === 'number') inner.show(columnOrPreserveFocus, preserveFocus);
      else inner.show(columnOrPreserveFocus);
    },
    hide: () => inner.hide(),
    dispose: () => inner.dispose(),
  };

  return { channel, lines, dispose: () => inner.dispose() };
}

function format(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
