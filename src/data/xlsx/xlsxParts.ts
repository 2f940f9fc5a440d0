/**
 * The XML of an .xlsx workbook (Office Open XML, SpreadsheetML), as text: cells, rows, the fixed
 * parts and sheet names. Pure: no `vscode`, no I/O.
 *
 * - Text is always an inline string (`t="inlineStr"`): never a formula, whatever it starts with,
 *   and no shared-string table to hold in memory. A number the service sent as a number is a
 *   number cell; true/false a boolean cell; null or a missing field no cell at all.
 * - Characters XML cannot hold (control characters other than TAB, LF and CR; lone surrogates;
 *   U+FFFE and U+FFFF) are written as Excel's `_xHHHH_` escapes, and a `_x` that would read as one
 *   is escaped itself; CR is `&#13;`, so a CRLF in a value is still one after reading.
 * - Excel keeps at most 32,767 characters in a cell: a longer text is cut there, and counted.
 */
import type { DataValue } from '../../api/schemas/dataSchemas';

export const MAX_SHEET_ROWS = 1_048_576;
export const MAX_SHEET_COLUMNS = 16_384;
export const MAX_CELL_TEXT = 32_767;

/** `A`, `B`, … `Z`, `AA`, … for a 0-based column. */
export function columnName(index: number): string {
  let n = index + 1;
  let name = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    name = String.fromCharCode(65 + r) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|_(?=x[0-9a-fA-F]{4}_)/g;
const SPECIAL = /[&<>\r]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
/** Anything either replacement could touch (most values have none: one test, no copy). */
// eslint-disable-next-line no-control-regex
const MAY_ESCAPE = /[&<>\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]|_x/;

/** Text as XML character data, with Excel's escapes for what XML cannot hold. */
export function xmlText(text: string): string {
  if (!MAY_ESCAPE.test(text)) return text;
  return text
    .replace(NOT_XML, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
    .replace(SPECIAL, (c) => ENTITIES[c] as string);
}

export interface CellOutcome {
  xml: string;
  /** The text was longer than a cell holds and was cut. */
  cut: boolean;
}

/** One cell at `ref` (e.g. `B7`), or '' for no value. */
export function cellXml(ref: string, value: DataValue | undefined, style = 0): CellOutcome {
  const s = style === 0 ? '' : ` s="${style}"`;
  if (value === undefined || value === null) return { xml: '', cut: false };
  if (typeof value === 'number')
    return { xml: Number.isFinite(value) ? `<c r="${ref}"${s}><v>${value}</v></c>` : '', cut: false };
  if (typeof value === 'boolean') return { xml: `<c r="${ref}"${s} t="b"><v>${value ? 1 : 0}</v></c>`, cut: false };
  const cut = value.length > MAX_CELL_TEXT;
  let text = cut ? value.slice(0, MAX_CELL_TEXT) : value;
  // A cut between the two halves of a surrogate pair would leave half a character.
  if (cut && /[\ud800-\udbff]$/.test(text)) text = text.slice(0, -1);
  return { xml: `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`, cut };
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A sheet's text before its data rows: frozen header row, the range it covers. */
export function sheetStart(columns: number, rows: number): string {
  const last = `${columnName(Math.max(0, columns - 1))}${Math.max(1, rows)}`;
  return (
    `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><dimension ref="A1:${last}"/>` +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    '<sheetFormatPr defaultRowHeight="15"/><sheetData>'
  );
}

export const SHEET_END = '</sheetData></worksheet>';

/** The header row: the fields' names, bold (style 1). */
export function headerRow(fields: readonly string[]): string {
  return `<row r="1">${fields.map((f, i) => cellXml(`${columnName(i)}1`, f, 1).xml).join('')}</row>`;
}

/** A sheet name from the task's name: no `[]:*?/\`, no apostrophe at either end, at most 31 characters with its number. */
export function sheetName(taskName: string, index: number): string {
  const base =
    taskName
      // eslint-disable-next-line no-control-regex
      .replace(/[[\]:*?/\\\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^'+|'+$/g, '') || 'Data';
  const suffix = index === 0 ? '' : ` (${index + 1})`;
  const name = base.slice(0, 31 - suffix.length).trim() + suffix;
  return name.toLowerCase() === 'history' ? 'History data' : name;
}

function attr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;');
}

export function contentTypesXml(sheets: number): string {
  const overrides = Array.from(
    { length: sheets },
    (_, i) =>
      `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  ).join('');
  return (
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    `${overrides}</Types>`
  );
}

export const ROOT_RELS_XML = `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

export function workbookXml(names: readonly string[]): string {
  const sheets = names.map((n, i) => `<sheet name="${attr(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  return `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`;
}

export function workbookRelsXml(sheets: number): string {
  const rels = Array.from(
    { length: sheets },
    (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  ).join('');
  return `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">${rels}<Relationship Id="rId${sheets + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`;
}

/** Two cell formats: 0 plain, 1 bold (the header). */
export const STYLES_XML =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';
