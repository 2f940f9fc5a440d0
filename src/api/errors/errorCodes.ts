/**
 * The error codes the service's published document shows, and what each means. Every error
 * example there sits under HTTP 400, `ServerError` ("Internal Server Error") included, so a known
 * code decides the kind of an error whatever the status; an unknown code leaves it to the status.
 */
import type { ApiErrorKind } from './errors';

/** Published codes (spec/published-examples.json), lower-cased, and the kind each one means. */
const PUBLISHED_CODES: ReadonlyMap<string, ApiErrorKind> = new Map<string, ApiErrorKind>([
  ['servererror', 'server'],
  ['invalid.grant', 'auth'],
  ['invalidtaskid', 'not-found'],
  ['invalidparameter', 'invalid-request'],
  ['invalidparameter.required', 'invalid-request'],
  ['taskupdatefail', 'invalid-request'],
]);

/** The kind a published code means, or undefined for a code the document does not show (or none). */
export function kindOfKnownCode(code: unknown): ApiErrorKind | undefined {
  return typeof code === 'string' ? PUBLISHED_CODES.get(code.trim().toLowerCase()) : undefined;
}

/** The `error.code` of a reply body, when it is an error envelope. */
export function envelopeCode(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}

/** A reply whose envelope names a server fault (`ServerError`), whatever its status: as transient as a 5xx. */
export function isServerFaultBody(body: unknown): boolean {
  return kindOfKnownCode(envelopeCode(body)) === 'server';
}
