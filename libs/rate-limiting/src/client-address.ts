import { isIPv4, isIPv6 } from 'node:net';

/** IPv6 clients are counted per /64, the block one customer's network usually gets. */
const IPV6_PREFIX_HEXTETS = 4;

/** The eight 16-bit groups of a valid IPv6 address, which may end in dotted IPv4. */
function hextetsOf(address: string): number[] {
  const groupsOf = (part: string | undefined) =>
    !part
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head, tail] = address.split('::');
  const left = groupsOf(head);
  const right = groupsOf(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * Whom a keyless request counts against: its client address, with an IPv4-mapped IPv6 address as
 * IPv4 and any other IPv6 address as its /64 (`2001:db8:1:2::/64`), so a client cannot pick a fresh
 * address from its block for every request. Anything else is returned as it is.
 */
export function clientAddress(ip: string | undefined): string | undefined {
  if (!ip) return ip;
  const bare = ip.split('%', 1)[0]!; // without an IPv6 zone index
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return ip;
  const hextets = hextetsOf(bare.toLowerCase());
  const zerosBefore = (index: number) => hextets.slice(0, index).every((hextet) => hextet === 0);
  if (zerosBefore(7) && hextets[7] === 1) return '::1';
  if (zerosBefore(5) && hextets[5] === 0xffff) {
    return [hextets[6]! >> 8, hextets[6]! & 0xff, hextets[7]! >> 8, hextets[7]! & 0xff].join('.');
  }
  const network = hextets.slice(0, IPV6_PREFIX_HEXTETS);
  while (network.length > 0 && network[network.length - 1] === 0) network.pop();
  return `${network.map((hextet) => hextet.toString(16)).join(':')}::/${IPV6_PREFIX_HEXTETS * 16}`;
}
