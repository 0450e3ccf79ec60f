import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Resolves a host name to every address it has; replaced by a stub in unit tests. */
export type HostResolver = (host: string) => Promise<string[]>;

/** Injection token of the resolver that webhook hosts are checked with. */
export const HOST_RESOLVER = Symbol('HOST_RESOLVER');

export const systemResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** A host that is, or resolves to, an address webhooks may not reach. */
export class NonPublicAddressError extends Error {
  override name = 'NonPublicAddressError';
}

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** The IPv4 address in two 16-bit parts of an IPv6 address, XORed with `mask` (Teredo hides its client so). */
function ipv4Of(high: number, low: number, mask = 0): IPv4 {
  const bits = (((high << 16) | low) ^ mask) >>> 0;
  return new ipaddr.IPv4([bits >>> 24, (bits >>> 16) & 0xff, (bits >>> 8) & 0xff, bits & 0xff]);
}

/** How an IPv6 address embeds IPv4 addresses: the first three translate to the one they embed. */
type EmbeddingForm = 'ipv4Mapped' | 'rfc6145' | 'rfc6052' | 'ipv4Compatible' | '6to4' | 'teredo';
const TRANSLATIONS: ReadonlySet<EmbeddingForm> = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052']);

/**
 * The IPv4 addresses an IPv6 address embeds: IPv4-mapped and -translated (RFC 4291, RFC 6145), NAT64's
 * well-known prefix (RFC 6052), IPv4-compatible (RFC 4291 2.5.5.1, deprecated), 6to4 (RFC 3056) and
 * Teredo (RFC 4380: its server, and its client's address with every bit inverted).
 */
function embeddedIpv4(address: IPv6): { form: EmbeddingForm; addresses: IPv4[] } | undefined {
  const p = address.parts as [number, number, number, number, number, number, number, number];
  const zeroes = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  const last = ipv4Of(p[6], p[7]);
  if (zeroes(0, 5) && p[5] === 0xffff) return { form: 'ipv4Mapped', addresses: [last] };
  if (zeroes(0, 4) && p[4] === 0xffff && p[5] === 0) return { form: 'rfc6145', addresses: [last] };
  if (p[0] === 0x64 && p[1] === 0xff9b && zeroes(2, 6)) return { form: 'rfc6052', addresses: [last] };
  // `::` and `::1` are the unspecified and loopback addresses, judged as such.
  if (zeroes(0, 6) && !(p[6] === 0 && p[7] <= 1)) return { form: 'ipv4Compatible', addresses: [last] };
  if (p[0] === 0x2002) return { form: '6to4', addresses: [ipv4Of(p[1], p[2])] };
  if (p[0] === 0x2001 && p[1] === 0) {
    return { form: 'teredo', addresses: [ipv4Of(p[2], p[3]), ipv4Of(p[6], p[7], 0xffffffff)] };
  }
  return undefined;
}

/**
 * Why `address` is not a public unicast address (`loopback`, `private`, `linkLocal`, `uniqueLocal`,
 * `multicast`, `unspecified`, and the other special ranges), or undefined when it is. An IPv6 address that
 * embeds IPv4 addresses is judged by the IPv4 rules first: refused for the range of the first non-public
 * one. Beyond that, one that translates to its IPv4 address (mapped, translated, NAT64) is as public as that
 * address, and any other form is refused as itself: IPv4-compatible addresses are deprecated and reach
 * nothing, and 6to4 and Teredo go through relays nobody vouches for.
 */
export function nonPublicRange(address: string): string | undefined {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return rangeOf(parsed);
  const embedded = embeddedIpv4(parsed as IPv6);
  if (!embedded) return rangeOf(parsed);
  for (const ipv4 of embedded.addresses) {
    const range = rangeOf(ipv4);
    if (range) return range;
  }
  return TRANSLATIONS.has(embedded.form) ? undefined : embedded.form;
}

function rangeOf(address: IPv4 | IPv6): string | undefined {
  const range = address.range();
  return range === 'unicast' ? undefined : range;
}

/** The URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Every address of `host` (itself, for an IP literal), refused with NonPublicAddressError when any of
 * them is not public: a name with one private address among public ones could be steered to it.
 */
export async function publicAddresses(host: string, resolve: HostResolver): Promise<string[]> {
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw new NonPublicAddressError(
        `host ${host} does not resolve (${(error as { code?: string }).code ?? 'error'})`,
      );
    }
  }
  if (addresses.length === 0) throw new NonPublicAddressError(`host ${host} does not resolve`);
  for (const address of addresses) {
    const range = nonPublicRange(address);
    if (range) throw new NonPublicAddressError(`host ${host} resolves to ${address}, a ${range} address`);
  }
  return addresses;
}
