/**
 * Errors as the page receives them. An `ApiError` keeps everything the page needs to explain it
 * and to copy the request id; anything else is a bug on our side and says so without internals.
 */
import { isApiError } from '../api/errors';
import type { WireError } from '../webview/protocol';

/** Not an ApiErrorKind: the user dismissed a dialog (save, quick pick). The page ignores it. */
// l10n-exempt: the page ignores a cancel; never shown
export const CANCELLED_BY_USER: WireError = { kind: 'cancelled', message: 'Cancelled.' };

export function toWireError(error: unknown): WireError {
  if (isApiError(error)) {
    const wire: WireError = { kind: error.kind, message: error.message };
    if (error.status !== undefined) wire.status = error.status;
    if (error.code !== undefined) wire.code = error.code;
    if (error.requestId !== undefined) wire.requestId = error.requestId;
    if (error.field !== undefined) wire.field = error.field;
    return wire;
  }
  const detail = error instanceof Error ? error.message : String(error);
  // l10n-exempt: shown in the analytics page, which is English until the page itself is localised
  return { kind: 'internal', message: `Something went wrong in Scrapedeck: ${detail}` };
}
