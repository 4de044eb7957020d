import { describe, expect, it } from 'vitest';
import { CsvFormatError, CsvRecords } from './csv-records.js';

/** Every way of cutting the text into chunks gives the same records. */
function recordsOf(text: string, chunkSize: number): string[][] {
  const csv = new CsvRecords();
  const records: string[][] = [];
  for (let i = 0; i < text.length; i += chunkSize) records.push(...csv.push(text.slice(i, i + chunkSize)));
  return [...records, ...csv.end()];
}

describe('CsvRecords', () => {
  it.each([
    ['plain records', 'a,b,c\n1,2,3\n', [['a', 'b', 'c'], ['1', '2', '3']]],
    ['CRLF and empty lines', 'a,b\r\n\r\n1,2\r\n\n', [['a', 'b'], ['1', '2']]],
    ['empty fields', ',x,\n', [['', 'x', '']]],
    ['no final line break', 'a,b\n1,2', [['a', 'b'], ['1', '2']]],
    ['a quoted comma, quote and line break', 'id,note\n1,"a,b ""c""\nd"\n2,plain\n', [['id', 'note'], ['1', 'a,b "c"\nd'], ['2', 'plain']]],
    ['a quoted field ending a CRLF record', '"x",y\r\n"z"\r\n', [['x', 'y'], ['z']]],
  ])('%s', (_name, text, expected) => {
    for (const size of [1, 2, 3, 7, text.length]) expect(recordsOf(text, size)).toEqual(expected);
  });

  it('refuses a file that ends inside a quoted field', () => {
    const csv = new CsvRecords();
    csv.push('a,"open\n');
    expect(() => csv.end()).toThrow(CsvFormatError);
  });
});
