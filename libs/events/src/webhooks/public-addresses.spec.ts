import { NonPublicAddressError, nonPublicRange, publicAddresses } from './public-addresses';

/** The IPv4 address as two IPv6 groups, its bits XORed with `mask`. */
function hex(v4: string, mask = 0): string {
  const bits = (v4.split('.').reduce((sum, octet) => sum * 256 + Number(octet), 0) ^ mask) >>> 0;
  return `${(bits >>> 16).toString(16)}:${(bits & 0xffff).toString(16)}`;
}

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
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s (%s)', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  // Every form of IPv6 address that carries an IPv4 address, each around 127.0.0.1, 10.0.0.1 and
  // 169.254.169.254: judged by the IPv4 rules, whatever it is as an IPv6 address.
  describe.each([
    ['IPv4-mapped', (v4: string) => `::ffff:${v4}`],
    ['IPv4-translated (RFC 6145)', (v4: string) => `::ffff:0:${v4}`],
    ['IPv4-compatible (deprecated)', (v4: string) => `::${v4}`],
    ['NAT64 (RFC 6052)', (v4: string) => `64:ff9b::${v4}`],
    ['6to4', (v4: string) => `2002:${hex(v4)}::1`],
    ['Teredo, as its server', (v4: string) => `2001:0:${hex(v4)}:0:0:a:a`],
    ['Teredo, as its client', (v4: string) => `2001:0:808:808:0:0:${hex(v4, 0xffffffff)}`],
  ])('the %s form', (_form, embed) => {
    it.each([
      ['127.0.0.1', 'loopback'],
      ['10.0.0.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['0.0.0.0', 'unspecified'],
    ])('that embeds %s is refused as %s', (v4, range) => {
      expect(nonPublicRange(embed(v4))).toBe(range);
    });
  });

  it.each([
    ['::7f00:1', 'loopback'],
    ['::a00:1', 'private'],
    ['::a9fe:a9fe', 'linkLocal'],
    ['::0.0.0.2', 'unspecified'],
    ['::808:808', 'ipv4Compatible'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:808:808::f7f7:f7f7', 'teredo'],
  ])('refuses %s (%s), as a URL host writes it', (address, range) => {
    expect(nonPublicRange(address)).toBe(range);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8', '::ffff:0:8.8.8.8', '64:ff9b::808:808'])(
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
