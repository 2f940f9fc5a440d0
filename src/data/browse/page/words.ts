/**
 * The page's words: the host's translated table of data/browse/protocol/browseStrings.ts, read as
 * every page reads its table (platform/webview/pageWords.ts). A missing, garbled or partial table
 * falls back to English, entry by entry.
 */
import { readPageWords } from '../../../platform/webview/pageWords';
import { BROWSE_STRINGS, type BrowseStrings, browseStringsFrom, browseText, setBrowseStrings } from '../protocol';

export { browseText as t };

export function loadBrowseStrings(doc: Document): BrowseStrings {
  return readPageWords(doc, BROWSE_STRINGS, (raw) => setBrowseStrings(browseStringsFrom(raw)));
}
