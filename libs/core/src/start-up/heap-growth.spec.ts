import { setFlagsFromString } from 'node:v8';
import { limitHeapGrowth } from './heap-growth';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));

// What the flag does to V8 is checked on a real process in test/operations/start-up.e2e-spec.ts.
describe('limitHeapGrowth', () => {
  beforeEach(() => jest.mocked(setFlagsFromString).mockClear());

  it('sets V8’s growing percent to the setting', () => {
    limitHeapGrowth(100);
    expect(setFlagsFromString).toHaveBeenCalledWith('--heap-growing-percent=100');
  });

  it('leaves V8’s own factor alone at 0', () => {
    limitHeapGrowth(0);
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
