/**
 * Errors as the page receives them. An `ApiError` keeps everything the page needs to explain it
 * and to copy the request id; anything else is a bug on our side and says so without internals.
 */
import { errorMessage, isApiError } from '../../api/errors/errors';
import { english, type Translate } from '../../platform/errorText';
import type { WireError } from '../protocol';

/** Not an ApiErrorKind: the user dismissed a dialog (save, quick pick). The page ignores it. */
// l10n-exempt: the page ignores a cancel; never shown
export const CANCELLED_BY_USER: WireError = { kind: 'cancelled', message: 'Cancelled.' };

/** `t` words Scrapedeck's own failure for the page (the service's messages are quoted as they came). */
export function toWireError(error: unknown, t: Translate = english): WireError {
  if (isApiError(error)) {
    const wire: WireError = { kind: error.kind, message: error.message };
    if (error.status !== undefined) wire.status = error.status;
    if (error.code !== undefined) wire.code = error.code;
    if (error.requestId !== undefined) wire.requestId = error.requestId;
    if (error.field !== undefined) wire.field = error.field;
    return wire;
  }
  const detail = errorMessage(error);
  return { kind: 'internal', message: t('Something went wrong in Scrapedeck: {0}', detail) };
}
