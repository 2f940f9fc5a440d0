/**
 * A data flow's failure in the user's words (issue 32 item 10): the cause without the request it
 * happened to (`GET /data/notexported?taskId=…` is the log's detail), then what becomes of the
 * rows. Pure (the translator is passed in), so the whole sentence is checked in Node.
 */
import { ApiError, errorMessage, isApiError } from '../../api/errors/errors';
import type { Translate } from '../../platform/errorText';

/** `for GET /data/notexported?taskId=…` in a transport message. */
const REQUEST = /\s*\b(?:for|to)?\s*(?:GET|POST|PUT|PATCH|DELETE) \/\S*?(?=:\s|\s|$)/g;

/** What happened, without the request it happened to. */
export function plainCause(error: unknown, t: Translate): string {
  if (isApiError(error)) {
    if (error.kind === 'network')
      return error.code
        ? t('The service could not be reached ({0}).', error.code)
        : t('The service could not be reached.');
    if (error.kind === 'timeout') return t('The service did not answer in time.');
    return error.message.replace(REQUEST, '');
  }
  return errorMessage(error);
}

/**
 * The same failure, its message ending with `advice`: an ApiError stays one, every field kept
 * (the reporter offers its request id); anything else becomes a plain Error.
 */
export function adviseFailure(error: unknown, advice: string, t: Translate): unknown {
  if (advice === '') return error;
  const message = `${plainCause(error, t).replace(/[.\s]+$/, '')}. ${advice}`;
  if (!isApiError(error)) return new Error(message);
  return new ApiError({
    kind: error.kind,
    message,
    status: error.status,
    code: error.code,
    category: error.category,
    requestId: error.requestId,
    retryable: error.retryable,
    field: error.field,
    maybeApplied: error.maybeApplied,
    cause: error,
  });
}

/**
 * What becomes of the rows after a pull stopped at `stage`, and how many were done before: whole
 * sentences (the next pull completes the job, exactly once). `count` formats a number.
 */
export function pullAdvice(
  stage: 'fetch' | 'write' | 'mark',
  o: { rowsDone: number; batchRows: number; file: string },
  t: Translate,
  count: (n: number) => string,
): string {
  let advice: string;
  switch (stage) {
    case 'fetch':
      advice = t('The next pull goes on from here: no row is lost or written twice.');
      break;
    case 'write':
      advice = t('The next pull completes {0}: no row is lost or written twice.', o.file);
      break;
    case 'mark':
      advice = t(
        'The {0} rows are in {1} but may not be marked exported: the next pull marks them without writing them again.',
        count(o.batchRows),
        o.file,
      );
      break;
  }
  return o.rowsDone > 0
    ? `${advice} ${t('{0} rows were written and marked exported before this.', count(o.rowsDone))}`
    : advice;
}
