import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { hostOf, HostResolver, publicAddresses } from '../webhooks/public-addresses';
import { WEBHOOK_USER_AGENT } from '../webhooks/webhook-signature';
import type { AttemptOutcome } from './webhook-attempts.repository';

/** The outcome of a request that was made: it always took some time. */
export type SentAttempt = AttemptOutcome & { durationMs: number };

/** An error short enough for the delivery log. */
const MAX_ERROR_LENGTH = 200;

/** A `lookup` that answers with the address already checked: the connection goes where the check looked. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return (_hostname, options, callback) => {
    if (options.all)
      (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [
        { address, family },
      ]);
    else callback(null, address, family);
  };
}

function describe(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return (code ? `${code}: ${message}` : (message ?? String(error))).slice(0, MAX_ERROR_LENGTH);
}

export interface WebhookSenderOptions {
  timeoutMs: number;
  /** Refuse hosts that are or resolve to non-public addresses (everywhere but development, where tests use loopback). */
  publicOnly: boolean;
  resolve: HostResolver;
}

/**
 * POSTs a signed body to an endpoint, once: the outcome says whether a 2xx came back within the timeout.
 * The host is resolved here and every address checked, and the connection is made to the checked one
 * (no second lookup a name could answer differently). Redirects are not followed: a 3xx is a failure.
 */
export class WebhookSender {
  /** Connections are kept open between deliveries to the same host, each made to an address checked when it opened. */
  private readonly agents = {
    'http:': new HttpAgent({ keepAlive: true }),
    'https:': new HttpsAgent({ keepAlive: true }),
  };

  constructor(private readonly options: WebhookSenderOptions) {}

  async send(url: string, body: string, headers: Record<string, string>): Promise<SentAttempt> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = new URL(url);
    try {
      const host = hostOf(target);
      const [address] = this.options.publicOnly
        ? await publicAddresses(host, this.options.resolve)
        : isIP(host)
          ? [host]
          : await this.options.resolve(host);
      const lookup = pinnedLookup(address!);
      const status = await this.post(target, body, headers, lookup, this.options.timeoutMs - elapsed());
      const succeeded = status >= 200 && status < 300;
      const error = succeeded
        ? undefined
        : `answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`;
      return { succeeded, responseStatus: status, durationMs: elapsed(), error };
    } catch (error) {
      return { succeeded: false, durationMs: elapsed(), error: describe(error) };
    }
  }

  /** Closes the kept connections. */
  close(): void {
    for (const agent of Object.values(this.agents)) agent.destroy();
  }

  private post(
    target: URL,
    body: string,
    headers: Record<string, string>,
    lookup: LookupFunction,
    timeoutMs: number,
  ): Promise<number> {
    if (timeoutMs <= 0) return Promise.reject(new Error(`no answer within ${this.options.timeoutMs} ms`));
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const outgoing = request(
        target,
        {
          method: 'POST',
          agent: this.agents[target.protocol as 'http:' | 'https:'],
          lookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': WEBHOOK_USER_AGENT,
          },
        },
        (response) => {
          // The answer's body is of no use: read and dropped, so the connection can carry the next one.
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        },
      );
      const timer = setTimeout(
        () => outgoing.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)),
        timeoutMs,
      );
      outgoing.on('error', reject);
      outgoing.on('close', () => clearTimeout(timer));
      outgoing.end(body);
    });
  }
}
