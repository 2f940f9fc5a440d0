export * from './browseStrings';
export * from './messages';
