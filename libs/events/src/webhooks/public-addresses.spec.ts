import { NonPublicAddressError, nonPublicRange, publicAddresses } from './public-addresses';

describe('nonPublicRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.1.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['255.255.255.255', 'broadcast'],
    ['64:ff9b::7f00:1', 'rfc6052'],
  ])('refuses %s (%s)', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])(
    'accepts the public address %s',
    (address) => {
      expect(nonPublicRange(address)).toBeUndefined();
    },
  );
});

describe('publicAddresses', () => {
  const resolver = (answers: Record<string, string[]>) => async (host: string) => {
    if (!(host in answers)) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return answers[host]!;
  };

  it('returns every address of a host that resolves only to public ones', async () => {
    await expect(
      publicAddresses('hooks.example', resolver({ 'hooks.example': ['93.184.216.34', '2606:4700::1'] })),
    ).resolves.toEqual(['93.184.216.34', '2606:4700::1']);
  });

  it('refuses a host with one private address among public ones', async () => {
    const resolve = resolver({ 'rebind.example': ['93.184.216.34', '10.0.0.5'] });
    await expect(publicAddresses('rebind.example', resolve)).rejects.toThrow(
      new NonPublicAddressError('host rebind.example resolves to 10.0.0.5, a private address'),
    );
  });

  it('refuses a name that resolves to an IPv4-mapped loopback address', async () => {
    const resolve = resolver({ 'mapped.example': ['::ffff:127.0.0.1'] });
    await expect(publicAddresses('mapped.example', resolve)).rejects.toThrow(/a loopback address/);
  });

  it('judges an IP literal itself, without resolving it', async () => {
    const resolve = jest.fn();
    await expect(publicAddresses('169.254.169.254', resolve)).rejects.toThrow(/a linkLocal address/);
    await expect(publicAddresses('8.8.8.8', resolve)).resolves.toEqual(['8.8.8.8']);
    expect(resolve).not.toHaveBeenCalled();
  });

  it('refuses a host that does not resolve', async () => {
    await expect(publicAddresses('nowhere.example', resolver({}))).rejects.toThrow(/does not resolve \(ENOTFOUND\)/);
  });
});
