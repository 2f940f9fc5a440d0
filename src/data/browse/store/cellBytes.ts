/**
 * A CSV cell's number or date read straight from its bytes, for the usual cells only (a plain
 * decimal, a `YYYY-MM-DD` date), so a sort's pass makes no string per cell. Anything else gives
 * undefined and is read as text by `numberOf`/`dateOf` (cells.ts), which these agree with exactly.
 */
const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;
const PLUS = 0x2b;
const MINUS = 0x2d;

/** Powers of ten a double holds exactly. */
const EXACT = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * `[+-]digits[.digits]` with at most 15 digits: the digits are an exact integer and 10^k is
 * exact, so one division rounds as `Number(text)` does (Clinger's fast path). Undefined for
 * anything else (an exponent, more digits, white space): the caller reads the text.
 */
export function numberAt(buf: Uint8Array, start: number, end: number): number | undefined {
  let i = start;
  const sign = buf[i];
  const negative = sign === MINUS;
  if (negative || sign === PLUS) i++;
  let mantissa = 0;
  let digits = 0;
  let decimals = -1;
  for (; i < end; i++) {
    const b = buf[i] as number;
    if (b >= ZERO && b <= NINE) {
      mantissa = mantissa * 10 + (b - ZERO);
      digits++;
      if (decimals >= 0) decimals++;
    } else if (b === DOT && decimals < 0) decimals = 0;
    else return undefined;
  }
  if (digits === 0 || digits > 15) return undefined;
  const value = decimals > 0 ? mantissa / (EXACT[decimals] as number) : mantissa;
  return negative ? -value : value;
}

const two = (buf: Uint8Array, at: number): number => ((buf[at] as number) - ZERO) * 10 + (buf[at + 1] as number) - ZERO;
const isDigit = (b: number | undefined): boolean => b !== undefined && b >= ZERO && b <= NINE;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (year: number, month: number): number =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : (DAYS[month - 1] as number);

/** Milliseconds of a `YYYY-MM-DD` cell (a real day of a year from 100 on), else undefined. */
export function dateAt(buf: Uint8Array, start: number, end: number): number | undefined {
  if (end - start !== 10 || buf[start + 4] !== MINUS || buf[start + 7] !== MINUS) return undefined;
  for (const k of [0, 1, 2, 3, 5, 6, 8, 9]) if (!isDigit(buf[start + k])) return undefined;
  const year = two(buf, start) * 100 + two(buf, start + 2);
  const month = two(buf, start + 5);
  const day = two(buf, start + 8);
  // Date.UTC reads years 0-99 as 1900-1999; other days are left to Date.parse, whatever it makes of them.
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  return Date.UTC(year, month - 1, day);
}
