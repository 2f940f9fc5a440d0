/**
 * The analytics panel <-> page protocol: the message schemas both sides parse with, and the wire
 * codec of host messages (records packed for the trip, checked fast on arrival).
 */
export * from './schemas';
export * from './messages';
export { encodeForPage, parseHostMessage } from './hostMessage';
export { StreamedRows } from './streamedRows';
export { forAccount, forgetAccount, holdsAccountData } from './accountBoundary';
