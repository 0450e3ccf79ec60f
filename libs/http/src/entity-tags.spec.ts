import { parseEntityTagCondition, putPrecondition } from './entity-tags';

describe('parseEntityTagCondition', () => {
  it('reads a list whose tags hold commas, weak and strong', () => {
    expect(parseEntityTagCondition('"a,b", W/"c" ,"d"', 'If-Match')).toEqual([
      { tag: 'a,b', weak: false },
      { tag: 'c', weak: true },
      { tag: 'd', weak: false },
    ]);
  });

  it('reads * as any current representation', () => {
    expect(parseEntityTagCondition(' * ', 'If-Match')).toBe('*');
  });

  it.each(['', 'abc', '"a" "b"', '"a",,', '"a", b', '"a"b'])('refuses %j as malformed', (header) => {
    expect(() => parseEntityTagCondition(header, 'If-Match')).toThrow('If-Match must be * or a list');
  });
});

describe('putPrecondition', () => {
  it('creates only without If-Match: with *, as with tags, there must be a current representation', () => {
    expect(putPrecondition(undefined)).toEqual({ versions: undefined, mayCreate: true });
    expect(putPrecondition('*')).toEqual({ versions: undefined, mayCreate: false });
    expect(putPrecondition('"17", W/"18", "x"')).toEqual({ versions: ['17'], mayCreate: false });
  });
});
