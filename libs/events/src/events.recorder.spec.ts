import { EVENT_ID_FORMAT } from './event-types';
import { newEventId, newEventIds } from './events.recorder';

describe('event ids', () => {
  it('are evt_ and 24 base64url characters, each of a batch its own', () => {
    const ids = [...newEventIds(1000), newEventId()];
    for (const id of ids) expect(id).toMatch(EVENT_ID_FORMAT);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
