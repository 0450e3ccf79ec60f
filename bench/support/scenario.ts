import type { BenchAccount, Stores } from './database';
import type { LoadRequest } from './load';

/** The concurrent connections of every scenario's load. */
export const CONNECTIONS = 50;

/** What a scenario needs to build its requests. */
export interface ScenarioContext {
  apiUrl: string;
  messagesUrl: string;
  /** Enterprise key whose limits never throttle the bench. */
  key: string;
  /** A free-plan key (60 a minute), hammered by the 429 scenario. */
  freeKey: string;
  /** Keys of the seeded enterprise accounts, one per account. */
  seededKeys: string[];
  seedPets: number;
  /** The enterprise key's account: the lister of the pets the store's scenarios order. */
  accountId: number;
  /** An enterprise account of its own for `create-pet-no-outbox`, so what that api wrote can be told apart. */
  noOutbox: BenchAccount;
  stores: Stores;
}

/** What `make` makes of a context, made once per context and shared by every scenario that asks for it. */
export function oncePerContext<T>(make: (context: ScenarioContext) => Promise<T>) {
  const made = new WeakMap<ScenarioContext, Promise<T>>();
  return (context: ScenarioContext): Promise<T> => {
    if (!made.has(context)) made.set(context, make(context));
    return made.get(context)!;
  };
}

export interface HttpScenario {
  name: string;
  title: string;
  /**
   * `api-no-outbox` is the api whose outbox INSERT is a no-op (bench/no-outbox.ts); `peer`, the service as
   * a team would write it with the stack's defaults (bench/peers/).
   */
  server: 'api' | 'messages' | 'api-no-outbox' | 'peer';
  /** Counts only answers with this status as the scenario's rate (the 429 scenario). */
  counted?: number;
  /** Deals the requests out among the connections (long lists) rather than each cycling through all. */
  dealt?: boolean;
  requests: (context: ScenarioContext) => LoadRequest[] | Promise<LoadRequest[]>;
  /** The service's scenario that this peer's scenario does the same as. */
  peerOf?: string;
  /** The scenario whose one request this one's many distinct requests vary (bench/support/spread.ts). */
  spreadOf?: string;
  /** Restores what a run used up, before each run (unmeasured). */
  prepare?: (context: ScenarioContext) => Promise<void>;
  /** After its runs: throws when they did not measure what the scenario says. */
  check?: (context: ScenarioContext) => Promise<void>;
}
