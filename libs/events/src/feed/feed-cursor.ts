import { InvalidFeedCursorError } from './feed.errors.js';

/**
 * A place in the feed: the writing transaction's id and the event's seq, the order the feed reads in, and when the
 * event there was written (`createdAtMs`, absent from v1 cursors), which tells a page of history from the feed's head.
 */
export interface FeedPosition {
  xactId: string;
  seq: string;
  createdAtMs?: number;
}

const XID8_MAX = 2n ** 64n - 1n;
const BIGINT_MAX = 2n ** 63n - 1n;

/** Opaque to clients (they only hand it back), so the order it encodes can change behind a new version tag. */
export function encodeFeedCursor(position: FeedPosition): string {
  const text = position.createdAtMs === undefined ? `v1:${position.xactId}:${position.seq}` : `v2:${position.xactId}:${position.seq}:${position.createdAtMs}`;
  return Buffer.from(text, 'utf8').toString('base64url');
}

export function decodeFeedCursor(cursor: string): FeedPosition {
  const match = /^(?:v1:(\d{1,20}):(\d{1,19})|v2:(\d{1,20}):(\d{1,19}):(\d{1,15}))$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new InvalidFeedCursorError();
  const position: FeedPosition = match[1] !== undefined ? { xactId: match[1], seq: match[2] } : { xactId: match[3], seq: match[4], createdAtMs: Number(match[5]) };
  // base64url decoding ignores what it cannot read: only a cursor that re-encodes to itself is ours.
  if (encodeFeedCursor(position) !== cursor) throw new InvalidFeedCursorError();
  if (BigInt(position.xactId) > XID8_MAX || BigInt(position.seq) > BIGINT_MAX) throw new InvalidFeedCursorError();
  return position;
}
