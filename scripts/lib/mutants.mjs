// The logic of `npm run mutants` (scripts/mutants.mjs), kept apart so a unit test can drive it:
// reading the list of guards, applying one mutation to a text, and judging a run.
import { readFileSync } from 'node:fs';

/** Rules a guard belongs to (docs/contracts/: files and data, agents, account, secrets, rate). */
export const RULES = ['files', 'data', 'agents', 'account', 'secrets', 'rate', 'outside-text'];

/**
 * Reads and checks the list (scripts/mutants.json): every entry names its guard, rule, file, the
 * text it mutates (`find`, exactly once in the file) and its replacement, why the guard matters,
 * and the test files meant to catch it.
 */
export function readGuards(file) {
  const list = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(list.guards)) throw new Error(`${file}: no "guards" array`);
  const names = new Set();
  for (const [i, g] of list.guards.entries()) {
    const where = `${file}: guard ${i + 1} (${g?.guard ?? '?'})`;
    for (const key of ['guard', 'rule', 'file', 'find', 'why'])
      if (typeof g[key] !== 'string' || g[key] === '') throw new Error(`${where}: "${key}" must be a non-empty string`);
    if (typeof g.replace !== 'string') throw new Error(`${where}: "replace" must be a string`);
    if (g.find === g.replace) throw new Error(`${where}: "replace" equals "find"`);
    if (!RULES.includes(g.rule)) throw new Error(`${where}: rule "${g.rule}" is not one of ${RULES.join(', ')}`);
    if (
      !Array.isArray(g.tests) ||
      g.tests.length === 0 ||
      !g.tests.every((t) => typeof t === 'string' && /^test\/unit\/.+\.test\.ts$/.test(t))
    )
      throw new Error(`${where}: "tests" must list test/unit/*.test.ts files`);
    if (g.grep !== undefined && typeof g.grep !== 'string') throw new Error(`${where}: "grep" must be a string`);
    if (names.has(g.guard)) throw new Error(`${where}: the name is used twice`);
    names.add(g.guard);
  }
  return { guards: list.guards, moving: Array.isArray(list.moving) ? list.moving : [] };
}

/**
 * The runs that check the tests pass before any mutation: every file some guard runs whole, in one
 * run; each file only ever run with a grep, alone with the union of its greps.
 */
export function baselineRuns(guards) {
  const whole = new Set();
  const grepped = new Map();
  for (const g of guards) {
    for (const t of g.tests) {
      if (g.grep === undefined) whole.add(t);
      else grepped.set(t, [...(grepped.get(t) ?? []), g.grep]);
    }
  }
  const runs = whole.size > 0 ? [{ tests: [...whole] }] : [];
  for (const [t, greps] of grepped)
    if (!whole.has(t)) runs.push({ tests: [t], grep: [...new Set(greps)].map((re) => `(?:${re})`).join('|') });
  return runs;
}

/** The text with `find` replaced by `replace`, or why it cannot be: the anchor is missing or not unique. */
export function mutate(text, find, replace) {
  const at = text.indexOf(find);
  if (at < 0) return { ok: false, problem: 'ANCHOR NOT FOUND' };
  if (text.indexOf(find, at + 1) >= 0) return { ok: false, problem: 'ANCHOR NOT UNIQUE' };
  return { ok: true, text: text.slice(0, at) + replace + text.slice(at + find.length) };
}

/**
 * What one mutant's run means: the tests failing (or hanging past the limit) caught it; passing,
 * it survived. An anchor problem, or a mutation that does not change the compiled code, is an error.
 */
export function verdict({ problem, exitCode, timedOut }) {
  if (problem !== undefined) return problem;
  if (timedOut) return 'CAUGHT (timeout)';
  return exitCode === 0 ? 'MISSED' : 'CAUGHT';
}

export function isCaught(result) {
  return result.startsWith('CAUGHT');
}

/** The exit code of the whole run: 0 only when every mutant was applied and caught. */
export function exitCodeOf(results) {
  return results.length > 0 && results.every((r) => isCaught(r.result)) ? 0 : 1;
}

/** The table printed at the end (Markdown, so it can go into a note as it is). */
export function table(results) {
  const rows = [['guard', 'rule', 'file', 'mutation', 'tests run', 'result', 'time']];
  for (const r of results) {
    rows.push([
      r.guard,
      r.rule,
      `${r.file}${r.moving ? ' (*)' : ''}`,
      r.mutation,
      r.tests,
      r.result,
      r.seconds === undefined ? '-' : `${r.seconds.toFixed(1)} s`,
    ]);
  }
  const line = (cells) => `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(rows[0]), line(rows[0].map(() => '---')), ...rows.slice(1).map(line)].join('\n');
}

/** A one-line, table-safe rendering of a mutation. */
export function describeMutation(find, replace) {
  const short = (s) => {
    const one = s.replace(/\s+/g, ' ').trim();
    return one.length > 60 ? `${one.slice(0, 57)}…` : one;
  };
  return `\`${short(find)}\` → \`${short(replace) || '(removed)'}\``;
}
