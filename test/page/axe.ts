/**
 * axe-core in the stand-in page: injected through the DevTools protocol (page.evaluate of its
 * source), which the page's CSP does not govern, so the policy under test stays exactly as the
 * panel ships it. Only serious and critical violations fail a test; the rest are printed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { AnalyticsPage } from './harness';

let source: string | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** "color-contrast (serious): Elements must meet … at #run: Fix any of …" for each serious or critical violation. */
export async function axeProblems(p: AnalyticsPage, where: string): Promise<string[]> {
  source ??= readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');
  // Once per document: compiling axe's 500 KB again for each check of the same page cost a second.
  if (!(await p.page.evaluate(() => 'axe' in globalThis))) await p.page.evaluate(source);
  const violations = (await p.page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ['violations'],
    });
    return result.violations;
  })) as AxeViolation[];
  const problems: string[] = [];
  for (const v of violations) {
    for (const n of v.nodes) {
      // One line per element, so a known problem of one element never hides another's.
      const line = `${where}: ${v.id} (${v.impact ?? 'unknown'}): ${v.help} at ${JSON.stringify(n.target)} [${(n.failureSummary ?? '').replace(/\s+/g, ' ')}]`;
      if (v.impact === 'serious' || v.impact === 'critical') problems.push(line);
      else console.log(`    (axe, minor) ${line}`);
    }
  }
  return problems;
}
