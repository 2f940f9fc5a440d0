/**
 * What the extension host's own log says about each Scrapedeck activation of an e2e run: which
 * event activated it, whether at start-up, and which extensions the host began activating within
 * the same few milliseconds (they share the host's one thread, and VS Code's recorded figure,
 * code loading + the activate() call, counts the time Scrapedeck's loading waits behind theirs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const LINE =
  /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \[info\] ExtensionService#_doActivateExtension ([\w.-]+), startup: (true|false), activationEvent: '([^']*)'/;

export interface HostActivation {
  host: string;
  event: string;
  /** Extensions whose activation began within `windowMs` of Scrapedeck's. */
  alongside: string[];
  /** Scrapedeck's own account (its log's "Activation shell:" line), when main loaded in that host. */
  own: string | undefined;
}

function hostLogs(logsDir: string): string[] {
  if (!existsSync(logsDir)) return [];
  return readdirSync(logsDir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(logsDir, entry.name);
    if (entry.isDirectory()) return hostLogs(full);
    return entry.name === 'remoteexthost.log' || entry.name === 'exthost.log' ? [full] : [];
  });
}

/** Every Scrapedeck activation recorded under `userDataDir`/logs, oldest host first. */
export function scrapedeckActivations(userDataDir: string, windowMs = 20): HostActivation[] {
  const found: { at: number; item: HostActivation }[] = [];
  for (const file of hostLogs(path.join(userDataDir, 'logs'))) {
    const rows = readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line) => {
        const m = LINE.exec(line);
        return m
          ? [
              {
                at: Date.parse((m[1] as string).replace(' ', 'T')),
                id: m[2] as string,
                startup: m[3] === 'true',
                event: m[4] as string,
              },
            ]
          : [];
      });
    const ours = rows.find((r) => r.id === 'scrapedeck.scrapedeck');
    if (ours === undefined) continue;
    const alongside = rows
      .filter((r) => r !== ours && Math.abs(r.at - ours.at) <= windowMs)
      .map((r) => `${r.id} (${r.event})`);
    const ownLog = path.join(path.dirname(file), 'scrapedeck.scrapedeck', 'Scrapedeck.log');
    const own = existsSync(ownLog) ? /Activation shell: (.*)$/m.exec(readFileSync(ownLog, 'utf8'))?.[1] : undefined;
    found.push({
      at: ours.at,
      item: {
        host: path.relative(userDataDir, file),
        event: `${ours.event}${ours.startup ? ', start-up' : ''}`,
        alongside,
        own,
      },
    });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.item);
}
