import createClient, { type Client } from 'openapi-fetch';
import type { paths as ApiPaths } from './generated/api';
import type { paths as MessagesPaths } from './generated/messages';
import { SERVERS } from './generated/servers';
import { RetryOptions, withRetries } from './retry';

export type Environment = keyof typeof SERVERS;

export interface PetAdoptionClientOptions {
  /** `Authorization: Bearer <apiKey>` on every request; leave out for sign-up alone. */
  apiKey?: string;
  /** Which of the documents' base URLs (`SERVERS`) to default to: `production` (the default) or `staging`. */
  environment?: Environment;
  /** The api's base URL, ending in `/v1` (default `SERVERS.production.api`: `npm start`'s, on localhost). */
  baseUrl?: string;
  /** The messages app's base URL (default `SERVERS.production.messages`: `npm start`'s, on localhost). */
  messagesBaseUrl?: string;
  /** Retries of 429 and 503; `false` turns them off. */
  retry?: RetryOptions | false;
  /** The `fetch` to send with (default: the global one). */
  fetch?: typeof fetch;
}

export interface PetAdoptionClient {
  /** The catalogue, accounts and keys, relative to the api's base URL. */
  api: Client<ApiPaths>;
  /** The message operations, relative to the messages app's own base URL. */
  messages: Client<MessagesPaths>;
}

/**
 * One typed client per base address, as the service publishes one document per base address: each operation
 * goes to the app that serves it.
 */
export function createPetAdoptionClient(options: PetAdoptionClientOptions = {}): PetAdoptionClient {
  const servers = SERVERS[options.environment ?? 'production'];
  const base = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const send = options.retry === false ? base : withRetries(base, options.retry);
  const headers = options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : undefined;
  return {
    api: createClient<ApiPaths>({
      baseUrl: options.baseUrl ?? servers.api,
      fetch: send,
      headers,
      // The document's lists in a query (listPets' `status`) are comma-separated: `form`, not exploded.
      querySerializer: { array: { style: 'form', explode: false } },
    }),
    messages: createClient<MessagesPaths>({
      baseUrl: options.messagesBaseUrl ?? servers.messages,
      fetch: send,
      headers,
    }),
  };
}
