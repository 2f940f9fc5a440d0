// How `npm test` judges a stage, failing closed: a stage passes only when it exited 0 and, when it
// runs mocha, mocha printed its summary with at least one passing test, no failing and no pending
// one (every tier's mocha forbids `.only` and pending tests too). A stage that cannot run here is
// "not run": never a pass, in CI or outside it.

// eslint-disable-next-line no-control-regex
const stripAnsi = (s) => s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

/** mocha's epilogue: the last "N passing", "N failing", "N pending" of the output, and pending titles. */
export function mochaCounts(output) {
  const text = stripAnsi(output);
  const last = (word) => {
    const all = [...text.matchAll(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'gm'))];
    return all.length ? Number(all[all.length - 1][1]) : undefined;
  };
  const pendingTitles = [...text.matchAll(/^\s+- (\S.*)$/gm)].map((m) => m[1].trim());
  return { passing: last('passing'), failing: last('failing'), pending: last('pending'), pendingTitles };
}

/**
 * The row of one stage. `code`: its exit code; `output`: what it printed when it runs mocha
 * (undefined for lint, typecheck, build); `cannotRun`: why it could not start, if so.
 * Resolves to { status: 'passed'|'failed'|'not run', passed, failed, pending, note }.
 */
export function judgeStage({ code = 0, output, cannotRun }) {
  if (cannotRun) return { status: 'not run', passed: 0, failed: 0, pending: 1, note: `cannot run here: ${cannotRun}` };
  const row = { status: 'passed', passed: 0, failed: 0, pending: 0, note: '' };
  const problems = [];
  if (output !== undefined) {
    const counts = mochaCounts(output);
    row.passed = counts.passing ?? 0;
    row.failed = counts.failing ?? 0;
    row.pending = counts.pending ?? 0;
    if (counts.passing === undefined && counts.failing === undefined) problems.push('no mocha summary: no tests ran');
    else if (row.passed === 0) problems.push('no test passed');
    if (row.pending > 0) problems.push(`pending (not run): ${counts.pendingTitles.join('; ') || row.pending}`);
  }
  if (code !== 0) problems.push(`exit code ${code}`);
  if (problems.length > 0) {
    row.status = 'failed';
    if (row.failed === 0) row.failed = 1;
    row.note = problems.join('; ');
  }
  return row;
}

/** The closing line CI reads; "skipped" counts pending tests and stages that could not run. */
export function totalLine(rows) {
  const t = rows.reduce(
    (acc, r) => ({ passed: acc.passed + r.passed, failed: acc.failed + r.failed, skipped: acc.skipped + r.pending }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  return `Total: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`;
}

/** npm test's exit code: 0 only when every stage passed. */
export function exitCode(rows) {
  return rows.length > 0 && rows.every((r) => r.status === 'passed') ? 0 : 1;
}
