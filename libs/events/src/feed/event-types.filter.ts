import { EVENT_TYPES, type EventType } from '../event-types.js';
import { InvalidEventTypesError } from './feed.errors.js';

/** `types=a,b` of the feed: null for every type; a name that is not an event type (ping included) is refused, not ignored. */
export function parseEventTypes(raw: string | undefined): EventType[] | null {
  if (raw === undefined) return null;
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(EVENT_TYPES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new InvalidEventTypesError(unknown, EVENT_TYPES);
  return [...new Set(names)] as EventType[];
}
