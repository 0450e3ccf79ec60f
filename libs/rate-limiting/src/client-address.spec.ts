import { clientAddress } from './client-address';

describe('clientAddress', () => {
  it('keeps an IPv4 address, also one mapped into IPv6', () => {
    expect(clientAddress('10.1.2.3')).toBe('10.1.2.3');
    expect(clientAddress('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(clientAddress('::FFFF:a01:203')).toBe('10.1.2.3');
  });

  it('counts an IPv6 address by its /64, in one spelling whatever the request wrote', () => {
    expect(clientAddress('2001:DB8:abcd:12:1:2:3:4')).toBe('2001:db8:abcd:12::/64');
    expect(clientAddress('2001:db8:abcd:12:ffff::')).toBe('2001:db8:abcd:12::/64');
    expect(clientAddress('2001:db8:0:0:1::')).toBe('2001:db8::/64');
    expect(clientAddress('0:0:0:1:0:0:0:2')).toBe('0:0:0:1::/64');
    expect(clientAddress('1:2:3:4:5:6:1.2.3.4')).toBe('1:2:3:4::/64');
    expect(clientAddress('fe80::1%eth0')).toBe('fe80::/64');
  });

  it('keeps the IPv6 loopback whole', () => {
    expect(clientAddress('::1')).toBe('::1');
    expect(clientAddress('0:0:0:0:0:0:0:1')).toBe('::1');
  });

  it('returns what is not an IP address as it is', () => {
    expect(clientAddress('not-an-address')).toBe('not-an-address');
    expect(clientAddress('')).toBe('');
    expect(clientAddress(undefined)).toBeUndefined();
  });
});
