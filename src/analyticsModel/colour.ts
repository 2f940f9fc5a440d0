/** Colour helpers for the charts. Pure, so they unit-test in Node. */

/**
 * A colour without its transparency: some theme colours the charts borrow are meant as overlays
 * (`charts.orange` derives from the minimap's find-match highlight) and would draw a faded line.
 * Handles #rgba, #rrggbbaa and rgba(); anything else is returned as it is.
 */
export function opaque(colour: string): string {
  const c = colour.trim();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})([0-9a-f]{1,2})$/i.exec(c);
  if (hex && (hex[1]?.length === 3 ? hex[2]?.length === 1 : hex[2]?.length === 2)) return `#${hex[1] ?? ''}`;
  const rgba = /^rgba\(\s*([^,]+),\s*([^,]+),\s*([^,]+),\s*[^)]+\)$/i.exec(c);
  if (rgba) return `rgb(${rgba[1] ?? ''}, ${rgba[2] ?? ''}, ${rgba[3] ?? ''})`;
  return c;
}
