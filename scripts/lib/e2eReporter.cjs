// The end-to-end tier's reporter: mocha's spec reporter, plus where each spec file's time went
// (its before-all hooks, its steps, its after-all hooks), printed as a table when the run ends.
// The time outside the steps (a browser launched, the workbench loaded, the window put back) is
// what the harness itself costs; the table keeps it in sight. Cheap: two timestamps per hook.
'use strict';
const Mocha = require('mocha');

const { EVENT_HOOK_BEGIN, EVENT_HOOK_END, EVENT_TEST_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_RUN_END } =
  Mocha.Runner.constants;

/** The spec file's suite (the root's child) a runnable belongs to, or the root itself. */
function specOf(runnable) {
  let suite = runnable.parent;
  while (suite && suite.parent && !suite.parent.root) suite = suite.parent;
  return suite;
}

class E2eReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const rows = new Map(); // suite -> { title, before, steps, after, total, started }
    const row = (suite) => {
      let r = rows.get(suite);
      if (!r)
        rows.set(
          suite,
          (r = {
            title: suite.root ? '(root hooks)' : suite.title,
            before: 0,
            steps: 0,
            after: 0,
            total: 0,
            started: Date.now(),
          }),
        );
      return r;
    };
    const hookStarts = new Map();
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.parent && suite.parent.root) row(suite).started = Date.now();
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (suite.parent && suite.parent.root) row(suite).total = Date.now() - row(suite).started;
    });
    runner.on(EVENT_HOOK_BEGIN, (hook) => hookStarts.set(hook, Date.now()));
    runner.on(EVENT_HOOK_END, (hook) => {
      const start = hookStarts.get(hook);
      if (start === undefined) return;
      const ms = Date.now() - start;
      const r = row(specOf(hook) ?? hook.parent);
      if (/"before all"/.test(hook.title)) r.before += ms;
      else if (/"after all"/.test(hook.title)) r.after += ms;
    });
    runner.on(EVENT_TEST_END, (test) => {
      row(specOf(test)).steps += test.duration ?? 0;
    });
    runner.once(EVENT_RUN_END, () => {
      if (rows.size === 0) return;
      const s = (ms) => (ms / 1000).toFixed(1).padStart(6);
      const lines = ['', "  Where each spec's time went (s): before-all, steps, after-all, outside the steps, total"];
      const sum = { before: 0, steps: 0, after: 0, total: 0 };
      for (const r of rows.values()) {
        if (r.title === '(root hooks)') r.total = r.before + r.after;
        lines.push(
          `  ${s(r.before)} ${s(r.steps)} ${s(r.after)} ${s(r.total - r.steps)} ${s(r.total)}  ${r.title.slice(0, 70)}`,
        );
        for (const k of Object.keys(sum)) sum[k] += r[k];
      }
      lines.push(
        `  ${s(sum.before)} ${s(sum.steps)} ${s(sum.after)} ${s(sum.total - sum.steps)} ${s(sum.total)}  all specs`,
      );
      process.stdout.write(`${lines.join('\n')}\n`);
    });
  }
}

module.exports = E2eReporter;
