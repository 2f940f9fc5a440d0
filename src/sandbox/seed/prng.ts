/**
 * A small seeded PRNG (mulberry32) and helpers. Everything the sandbox must reproduce from a
 * seed (accounts, keys, records, faults) draws from here, never from Math.random.
 */

export type Rng = () => number;

/** mulberry32: fast, 32-bit state, good enough for test data. Returns floats in [0, 1). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, to turn names into sub-seeds. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * An independent stream per purpose ("apiKey", "records", a task id …), so adding data in one
 * place does not shift every value generated after it.
 */
export function rngFor(seed: number, ...parts: (string | number)[]): Rng {
  return mulberry32((hashString(parts.join('|')) ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0);
}

/** An integer in [min, max]. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function floatBetween(rng: Rng, min: number, max: number): number {
  return min + rng() * (max - min);
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}

export function chance(rng: Rng, p: number): boolean {
  return rng() < p;
}

const HEX = '0123456789abcdef';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomChars(rng: Rng, length: number, alphabet: string = HEX): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rng() * alphabet.length)];
  return out;
}

export function base62(rng: Rng, length: number): string {
  return randomChars(rng, length, BASE62);
}

/** A UUID-shaped id (version nibble 4), as the service's task ids look. */
export function uuidLike(rng: Rng): string {
  const h = randomChars(rng, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[Math.floor(rng() * 4)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
