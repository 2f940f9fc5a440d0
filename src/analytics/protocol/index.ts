/**
 * The analytics panel <-> page protocol: the message schemas both sides parse with, and the wire
 * codec of host messages (records packed for the trip, checked fast on arrival).
 */
export { forAccount, forgetAccount, holdsAccountData } from './accountBoundary';
export { encodeForPage, parseHostMessage } from './hostMessage';
export * from './messages';
export * from './schemas';
export { StreamedRows } from './streamedRows';
