import { RACED, retryOnConflict } from './retry-on-conflict';

describe('retryOnConflict', () => {
  /** An attempt that loses `races` races, then applies; and how many times it ran. */
  function winningAfter(races: number) {
    let tries = 0;
    const attempt = async () => (++tries > races ? `applied on try ${tries}` : RACED);
    return { attempt, tries: () => tries };
  }
  const exhausted = () => new Error('precondition failed');

  it('gives back what the first attempt that did not race wrote', async () => {
    const { attempt, tries } = winningAfter(4);
    await expect(retryOnConflict(5, attempt, exhausted)).resolves.toBe('applied on try 5');
    expect(tries()).toBe(5);
  });

  it('throws the exhausted error once every attempt raced', async () => {
    const { attempt, tries } = winningAfter(5);
    await expect(retryOnConflict(5, attempt, exhausted)).rejects.toThrow('precondition failed');
    expect(tries()).toBe(5);
  });

  it('passes the refusal of an attempt on without trying again', async () => {
    let tries = 0;
    const refused = async () => {
      tries++;
      throw new Error('held by an order');
    };
    await expect(retryOnConflict(5, refused, exhausted)).rejects.toThrow('held by an order');
    expect(tries).toBe(1);
  });

  it('gives back a falsy result as applied', async () => {
    await expect(retryOnConflict(5, async () => false, exhausted)).resolves.toBe(false);
  });
});
