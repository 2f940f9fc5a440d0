export * from './messages';
export * from './pageStrings';
