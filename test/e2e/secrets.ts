/**
 * The after-run check: no secret (API keys, passwords, access and refresh tokens) in the files a
 * run leaves behind. Files are read as bytes (state.vscdb is SQLite) and searched in UTF-8 and
 * UTF-16LE; tokens are recognised by the sandbox's format (src/sandbox/state/auth.ts: `sat_`/`srt_` and
 * 32 base64url characters; API keys start with `sdk_`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

import type { E2eContext } from './support';

export const TOKEN_PATTERN = /\b(?:sat|srt)_[A-Za-z0-9_-]{32}\b/g;
export const API_KEY_PATTERN = /\bsdk_[A-Za-z0-9]{20,}\b/g;

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (entry.isFile()) out.push(full);
  }
  return out;
}

/** Where the run keeps the extension's log and its globalState. */
export function secretTargets(ctx: E2eContext): { extensionLogs: string[]; globalState: string[]; all: string[] } {
  const all = walk(ctx.run.dir);
  const extensionLogs = all.filter((f) => /scrapedeck/i.test(path.basename(f)) && f.endsWith('.log'));
  // globalState: state.vscdb (server side, SQLite) and the browser's own storage of the workbench.
  const globalState = all.filter(
    (f) => /state\.vscdb(\.backup)?$/.test(f) || (f.startsWith(ctx.run.profile) && /IndexedDB|Local Storage/.test(f)),
  );
  return { extensionLogs, globalState, all };
}

function mask(secret: string): string {
  return `${secret.slice(0, 4)}…(${secret.length} chars)`;
}

export interface Finding {
  file: string;
  what: string;
}

/** Every occurrence of a known secret or of a token-shaped string in `files`. */
export function findSecrets(files: string[], secrets: string[]): Finding[] {
  const findings: Finding[] = [];
  for (const file of files) {
    if (!existsSync(file) || !statSync(file).isFile()) continue;
    const bytes = readFileSync(file);
    const texts = [bytes.toString('latin1'), bytes.toString('utf16le'), bytes.subarray(1).toString('utf16le')];
    for (const secret of secrets) {
      const needles = [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le')];
      if (needles.some((n) => bytes.includes(n))) findings.push({ file, what: `known secret ${mask(secret)}` });
    }
    for (const text of texts) {
      for (const pattern of [TOKEN_PATTERN, API_KEY_PATTERN]) {
        for (const m of text.matchAll(pattern)) findings.push({ file, what: `secret-shaped string ${mask(m[0])}` });
      }
    }
  }
  // One line per file and kind is enough to act on.
  return [...new Map(findings.map((f) => [`${f.file} ${f.what}`, f])).values()];
}
