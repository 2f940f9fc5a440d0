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

export type Rgb = [number, number, number];

/** #rgb, #rrggbb (alpha ignored: see opaque) or rgb()/rgba(); undefined for anything else. */
export function parseColour(colour: string): Rgb | undefined {
  const c = opaque(colour).trim();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(c);
  if (short) return [short[1], short[2], short[3]].map((d) => parseInt(`${d ?? '0'}${d ?? '0'}`, 16)) as Rgb;
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(c);
  if (long) return [long[1], long[2], long[3]].map((d) => parseInt(d ?? '0', 16)) as Rgb;
  const rgb = /^rgb\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*\)$/i.exec(c);
  if (rgb) return [rgb[1], rgb[2], rgb[3]].map((d) => Math.min(255, Number(d))) as Rgb;
  return undefined;
}

/** WCAG relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export function rgbText([r, g, b]: Rgb): string {
  return `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;
}

/** Non-text graphics (WCAG 1.4.11) need 3:1 against what they are drawn on. */
export const GRAPHIC_CONTRAST = 3;

/**
 * `colour`, or when it is too close to `background` (below 3:1), the same colour moved toward
 * `ink` (the theme's foreground) just far enough: a series is never drawn in, or near, the
 * background's colour. Colours it cannot read are returned as they are.
 */
export function legible(colour: string, background: string, ink: string): string {
  const c = parseColour(colour);
  const bg = parseColour(background);
  if (!c || !bg || contrast(c, bg) >= GRAPHIC_CONTRAST) return colour;
  const fg = parseColour(ink);
  const towards: Rgb =
    fg && contrast(fg, bg) >= GRAPHIC_CONTRAST ? fg : luminance(bg) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  for (let step = 1; step <= 10; step++) {
    const t = step / 10;
    const mixed = c.map((v, i) => v + ((towards[i] ?? v) - v) * t) as Rgb;
    const rounded = mixed.map(Math.round) as Rgb;
    if (contrast(rounded, bg) >= GRAPHIC_CONTRAST) return rgbText(rounded);
  }
  return rgbText(towards);
}
