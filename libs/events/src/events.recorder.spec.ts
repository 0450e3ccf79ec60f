import { newEventId, newEventIds } from './events.recorder';

describe('event ids', () => {
  it('are evt_ and 24 base64url characters, each of a batch its own', () => {
    const ids = [...newEventIds(1000), newEventId()];
    for (const id of ids) expect(id).toMatch(/^evt_[A-Za-z0-9_-]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
