/** How the bench's sections print and sum what they measured: one way for every section. */
import { medianOf } from './judge';

/** The median, or NaN where a sample is missing (the row that uses it is then MISSED). */
export const median = (xs: readonly number[]): number => medianOf(xs) ?? Number.NaN;
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
