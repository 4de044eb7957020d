/** One column of an export: its header and how to read it from a row. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | Date | null | undefined;
}

/** A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start of a text). */
const FORMULA = /^[=+\-@\t\r]/;

/**
 * RFC 4180 text: CRLF line ends, a cell quoted when it holds a comma, quote or line break (quotes doubled).
 * Numbers (money in integer minor units) are written as they are; a text that a spreadsheet would evaluate gets
 * a leading apostrophe, so an exported note can never run in finance's spreadsheet.
 */
export function toCsv<T>(columns: ReadonlyArray<CsvColumn<T>>, rows: readonly T[]): string {
  const lines = [columns.map((c) => cell(c.header)), ...rows.map((row) => columns.map((c) => cell(c.value(row))))];
  return lines.map((line) => line.join(',')).join('\r\n') + '\r\n';
}

function cell(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const text = value instanceof Date ? value.toISOString() : FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
