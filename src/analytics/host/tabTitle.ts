/** The panel tab's title from the page's words about its query. */
import { english, type Translate } from '../../platform/errorText';

/** Text for a tab: control characters out, white space collapsed, never empty. */
export function oneLine(text: string, t: Translate = english): string {
  const clean = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean === '' ? t('Task Analytics') : clean;
}
