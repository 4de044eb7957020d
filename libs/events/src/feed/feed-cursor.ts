import { InvalidFeedCursorError } from './feed.errors.js';

/** A place in the feed: the writing transaction's id and the event's seq, the order the feed reads in. */
export interface FeedPosition {
  xactId: string;
  seq: string;
}

const XID8_MAX = 2n ** 64n - 1n;
const BIGINT_MAX = 2n ** 63n - 1n;

/** Opaque to clients (they only hand it back), so the order it encodes can change behind a new version tag. */
export function encodeFeedCursor(position: FeedPosition): string {
  return Buffer.from(`v1:${position.xactId}:${position.seq}`, 'utf8').toString('base64url');
}

export function decodeFeedCursor(cursor: string): FeedPosition {
  const match = /^v1:(\d{1,20}):(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  // base64url decoding ignores what it cannot read: only a cursor that re-encodes to itself is ours.
  if (!match || encodeFeedCursor({ xactId: match[1], seq: match[2] }) !== cursor) throw new InvalidFeedCursorError();
  if (BigInt(match[1]) > XID8_MAX || BigInt(match[2]) > BIGINT_MAX) throw new InvalidFeedCursorError();
  return { xactId: match[1], seq: match[2] };
}
