import { sniffFormat } from './image-checks';

const bytes = (...values: Array<number | string>) =>
  Buffer.concat(
    values.map((value) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from([value]))),
  );

describe('sniffFormat', () => {
  it.each([
    ['jpeg', bytes(0xff, 0xd8, 0xff, 0xe0)],
    ['png', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0)],
    ['webp', bytes('RIFF', 0x24, 0, 0, 0, 'WEBPVP8 ')],
  ])('tells a %s file by its first bytes', (format, head) => {
    expect(sniffFormat(head)).toBe(format);
  });

  it.each([
    ['a GIF', bytes('GIF89a')],
    ['a RIFF file of another kind', bytes('RIFF', 0x24, 0, 0, 0, 'WAVEfmt ')],
    ['a JPEG cut short', bytes(0xff, 0xd8)],
    ['an SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['nothing', Buffer.alloc(0)],
  ])('knows no format in %s', (_case, head) => {
    expect(sniffFormat(head)).toBeUndefined();
  });
});
