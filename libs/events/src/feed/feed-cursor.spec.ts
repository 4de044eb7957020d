import { describe, expect, it } from 'vitest';
import { decodeFeedCursor, encodeFeedCursor } from './feed-cursor.js';

describe('feed cursors', () => {
  it('carry the place and, from v2 on, when its event was written', () => {
    const position = { xactId: '812', seq: '4096', createdAtMs: 1_765_000_000_123 };
    expect(decodeFeedCursor(encodeFeedCursor(position))).toEqual(position);
  });

  it('still read a v1 cursor handed out before the time was in it', () => {
    const v1 = Buffer.from('v1:812:4096', 'utf8').toString('base64url');
    expect(decodeFeedCursor(v1)).toEqual({ xactId: '812', seq: '4096' });
    expect(encodeFeedCursor({ xactId: '812', seq: '4096' })).toBe(v1);
  });

  it.each([
    ['another version', 'v3:1:2:3'],
    ['a v2 cursor without its time', 'v2:1:2'],
    ['a v1 cursor with a time', 'v1:1:2:3'],
    ['a time that is not a number', 'v2:1:2:x'],
  ])('refuse %s', (_case, text) => {
    expect(() => decodeFeedCursor(Buffer.from(text, 'utf8').toString('base64url'))).toThrow();
  });
});
