/**
 * RFC 4180 CSV read as it streams in, one array of field strings per record: no object per row or per field.
 * `push` returns the records completed by the text so far and keeps an incomplete tail for the next chunk;
 * quoted fields (with `""` for a quote, and line breaks inside) are parsed character by character, plain
 * records are split at once. Empty lines are skipped; `\r\n` ends a record like `\n`.
 */
export class CsvRecords {
  private tail = '';

  push(text: string): string[][] {
    const input = this.tail + text;
    const records: string[][] = [];
    let pos = 0;
    // Found once and reused while ahead of pos: searching it per record would rescan a quote-free chunk each time.
    let nextQuote = input.indexOf('"');
    for (;;) {
      const newline = input.indexOf('\n', pos);
      if (newline === -1) break;
      if (nextQuote !== -1 && nextQuote < pos) nextQuote = input.indexOf('"', pos);
      if (nextQuote === -1 || nextQuote > newline) {
        const end = newline > pos && input.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
        if (end > pos) records.push(input.slice(pos, end).split(','));
        pos = newline + 1;
        continue;
      }
      const quoted = quotedRecord(input, pos);
      if (!quoted) break;
      records.push(quoted.fields);
      pos = quoted.next;
    }
    this.tail = input.slice(pos);
    return records;
  }

  /** The last record, when the text does not end with a line break; throws on a quote left open. */
  end(): string[][] {
    if (this.tail.trim() === '') return [];
    const records = this.push('\n');
    if (this.tail !== '') throw new CsvFormatError('the file ends inside a quoted field');
    return records;
  }
}

export class CsvFormatError extends Error {}

/** A record from `start` with at least one quoted field; null when it does not end within `input`. */
function quotedRecord(input: string, start: number): { fields: string[]; next: number } | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = start; i < input.length; i += 1) {
    const c = input[i];
    if (quoted) {
      if (c !== '"') {
        field += c;
      } else if (input[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (i + 1 === input.length) {
        return null;
      } else {
        quoted = false;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n') {
      fields.push(field.endsWith('\r') ? field.slice(0, -1) : field);
      return { fields, next: i + 1 };
    } else {
      field += c;
    }
  }
  return null;
}
