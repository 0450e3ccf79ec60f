import fc from 'fast-check';
import { canonicalEmail } from './canonical-email';

describe('canonicalEmail', () => {
  it.each([
    ['xß@example.com', 'xSS@example.com'],
    ['xß@example.com', 'xss@example.com'],
    ['xẞ@example.com', 'xß@example.com'],
    ['xẞ@example.com', 'xss@example.com'],
    ['ıan@example.com', 'IAN@example.com'],
    ['ａlex@example.com', 'alex@example.com'],
    ['Élise@example.com', 'élise@example.com'],
    ['ΣΟΦΟΣ@example.com', 'σοφος@example.com'],
    ['σοφος@example.com', 'σοφοσ@example.com'],
    ['e\u0301@example.com', 'é@example.com'],
    ['ﬁle@example.com', 'FILE@example.com'],
  ])('gives %s and %s one form', (a, b) => {
    expect(canonicalEmail(a)).toBe(canonicalEmail(b));
  });

  it.each([
    ['alex@example.com', 'alex2@example.com'],
    ['é@example.com', 'e@example.com'],
    ['i@example.com', 'İ@example.com'],
  ])('keeps %s and %s apart', (a, b) => {
    expect(canonicalEmail(a)).not.toBe(canonicalEmail(b));
  });

  it('is its own canonical form, also for capital sharp s (whose lower case upper-cases to SS)', () => {
    expect(canonicalEmail(canonicalEmail('ẞ'))).toBe(canonicalEmail('ẞ'));
  });

  it('is its own canonical form', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const once = canonicalEmail(text);
        expect(canonicalEmail(once)).toBe(once);
      }),
      { numRuns: 5000 },
    );
  });
});
