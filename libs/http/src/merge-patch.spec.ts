import { Type } from 'class-transformer';
import { IsBoolean, IsNumber, IsOptional, IsString, ValidateNested } from 'class-validator';
import { mergePatch, mergePatchChange, mergesIntoObjects } from './merge-patch';

describe('mergePatch', () => {
  // The examples of RFC 7396, Appendix A.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('merges %j with %j into %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('leaves the target as it was', () => {
    const target = { a: { b: 1 } };
    mergePatch(target, { a: { b: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });
});

class Point {
  @IsNumber()
  x: number;

  @IsNumber()
  y: number;
}

class Flags {
  @IsOptional()
  @IsBoolean()
  big?: boolean;

  @IsOptional()
  @IsBoolean()
  old?: boolean;
}

class Change {
  @IsOptional()
  @IsString()
  name?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => Point)
  point?: Point | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => Flags)
  flags?: Flags | null;
}

describe('mergePatchChange', () => {
  const current = { name: 'Rex', point: { x: 10, y: 20 }, flags: { big: true, old: false } };

  it('merges a nested object member by member into the current one, then validates it whole', async () => {
    await expect(mergePatchChange(Change, { point: { x: 11 } }, current)).resolves.toEqual({ point: { x: 11, y: 20 } });
    await expect(mergePatchChange(Change, { flags: { old: null } }, current)).resolves.toEqual({
      flags: { big: true },
    });
    await expect(mergePatchChange(Change, { point: { x: 11 } }, {})).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/^point\.y must be a number/),
    });
  });

  it('keeps a top-level null, which clears the field, and names only the fields the patch names', async () => {
    await expect(mergePatchChange(Change, { point: null, name: 'Max' }, current)).resolves.toEqual({
      point: null,
      name: 'Max',
    });
  });

  it('needs the resource as it is only for a patch that merges into an object', () => {
    expect(mergesIntoObjects({ name: 'Max', point: null, tags: ['a'] })).toBe(false);
    expect(mergesIntoObjects({ point: { x: 1 } })).toBe(true);
  });
});
