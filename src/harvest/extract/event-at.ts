/**
 * Finding a session's event by its `index` without scanning: readers number events by their
 * position (pushEvent), so `events[i].index === i` and the event is `events[i]`. Rules look up
 * events by index for every step or candidate; a scan (or a Map of all events) per lookup or per
 * rule cost more than the rule. Sessions numbered otherwise keep the old lookups.
 */
import type { SessionEvent } from '../../sessions/model.js';

const byPosition = new WeakMap<readonly SessionEvent[], boolean>();

/** True when every event's index is its position in the array (checked once per array). */
export function indexedByPosition(events: readonly SessionEvent[]): boolean {
  let ok = byPosition.get(events);
  if (ok === undefined) {
    ok = true;
    for (let i = 0; i < events.length && ok; i++) if (events[i]!.index !== i) ok = false;
    byPosition.set(events, ok);
  }
  return ok;
}
