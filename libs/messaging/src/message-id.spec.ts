import { MESSAGE_ID_FORMAT, newMessageId } from './message-id';

describe('newMessageId', () => {
  it('makes msg_ and 24 base62 characters, different every time', () => {
    const ids = Array.from({ length: 1000 }, newMessageId);
    for (const id of ids) expect(id).toMatch(MESSAGE_ID_FORMAT);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
