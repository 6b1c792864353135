/**
 * Finding a session's event by its `index` without scanning: readers number events by their
 * position (sessions/events.ts), so `events[i].index === i` and the event is `events[i]`. Rules look up
 * events by index for every step or candidate; a scan (or a Map of all events) per lookup or per
 * rule cost more than the rule. Sessions numbered otherwise keep the old lookups.
 */
import type { SessionEvent } from '../../sessions/model.js';
import { perObject } from './per-object.js';

/** True when every event's index is its position in the array (checked once per array). */
export const indexedByPosition = perObject((events: readonly SessionEvent[]): boolean => {
  for (let i = 0; i < events.length; i++) if (events[i]!.index !== i) return false;
  return true;
});
