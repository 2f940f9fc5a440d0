// How `npm run bench` turns each section into a table, failing closed: a section that throws, or
// returns no row, is a MISSED row of its own (the next section still runs), and a row whose pass
// rests on a figure that is not a number (NaN, Infinity) is MISSED whatever its pass said.

/** Runs one section's `run()`; never throws. Resolves to { title, rows, notes }. */
export async function settleSection(file, run) {
  try {
    const section = await run();
    const rows = Array.isArray(section?.rows) ? section.rows : [];
    if (rows.length === 0) {
      return {
        title: section?.title ?? file,
        rows: [missedRow(`bench/${file}`, 'the section returned no row')],
        notes: section?.notes ?? [],
      };
    }
    return { title: section.title, rows: rows.map(judged), notes: section.notes ?? [] };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return { title: `bench/${file}`, rows: [missedRow(`bench/${file}`, `the section failed: ${reason}`)], notes: [] };
  }
}

export function missedRow(name, reason) {
  return { name, value: `not measured: ${reason}`, target: 'measured', pass: false };
}

/** A judged row whose ratio is not a finite number measured nothing it could be judged by. */
function judged(row) {
  if (row.pass === true && row.ratio !== undefined && !Number.isFinite(row.ratio)) {
    return { ...row, value: `${row.value} (ratio ${row.ratio}: not a measurement)`, pass: false };
  }
  return row;
}

/** The rows of a section that count as missed. */
export function missedOf(section) {
  return section.rows.filter((r) => r.pass === false).map((r) => `${section.title}: ${r.name.trim()}`);
}

export function printSection(section, ms) {
  const header = ['Measure', 'Value', 'Against', 'Ratio', 'Target', ''];
  const rows = section.rows.map((r) => [
    r.name,
    r.value,
    r.against ?? '',
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)} x`,
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'ok' : 'MISSED',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n## ${section.title}  (${(ms / 1000).toFixed(1)} s)\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  for (const note of section.notes ?? []) console.log(`\nnote: ${note}`);
  console.log('');
}
