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

/**
 * Why `address` is not a public unicast address (`loopback`, `private`, `linkLocal`, `uniqueLocal`,
 * `multicast`, `unspecified`, and the other special ranges), or undefined when it is. An IPv4-mapped
 * IPv6 address is judged as the IPv4 address it carries.
 */
export function nonPublicRange(address: string): string | undefined {
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : range;
}

/** The URL's host without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, (_bracketed, address: string) => address);
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
