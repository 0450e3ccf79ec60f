import { AccountsService } from '@app/accounts';
import type { OrderStatus } from '@app/orders';
import type TestAgent from 'supertest/lib/agent';
import { createApiApp } from './api-app';
import { suiteDatabase, SuiteDatabase } from './database';
import { createPet, signUp, TestAccount } from './factories';
import type { TestHttpApp } from './http-app';

export interface OrderBody {
  id: number;
  petId: number;
  status: string;
  role: string;
  note?: string;
  cancellationReason?: string;
  expiresAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** Places an order through the API, as an adopter would; it must be placed. */
export async function placeOrder(http: TestAgent, adopter: TestAccount, petId: number): Promise<OrderBody> {
  const response = await http.post('/v1/store/orders').set(adopter.auth).send({ petId }).expect(201);
  return response.body;
}

/** Asks for a transition of an order; answers whatever the service says. */
export function transition(http: TestAgent, account: TestAccount, orderId: number, operation: string, body?: object) {
  const request = http.post(`/v1/store/orders/${orderId}/${operation}`).set(account.auth);
  return body ? request.send(body) : request;
}

/** The pet's status as the catalogue shows it. */
export async function petStatus(http: TestAgent, account: TestAccount, petId: number): Promise<string> {
  return ((await http.get(`/v1/pets/${petId}`).set(account.auth).expect(200)).body as { status: string }).status;
}

/** An order's timestamps: ISO 8601 UTC with milliseconds and `Z`. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** What a store suite runs with: a short hold and a small open-orders cap its tests can reach. */
export const STORE_SETTINGS = { holdSeconds: 3600, maxOpen: 3 };

export interface StoreSuite {
  app: TestHttpApp;
  /** The suite's own database: the inventory counts the whole catalogue, so it holds only this suite's pets. */
  database: SuiteDatabase;
  lister: TestAccount;
  adopter: TestAccount;
  stranger: TestAccount;
  /** A new account on a plan the suite's request counts fit in. */
  account(): Promise<TestAccount>;
  listPet(owner: TestAccount, status?: string): ReturnType<typeof createPet>;
  /** A new pet of the lister. */
  listedPet(status?: string): ReturnType<typeof createPet>;
  /**
   * An order of a new pet of the lister, taken to `status` through the transitions, placed by `by` or
   * else by a new account (so that no adopter reaches the open-orders cap).
   */
  orderIn(status: OrderStatus, by?: TestAccount): Promise<{ order: OrderBody; adopter: TestAccount }>;
}

/** Starts an api app on a database of the suite's own before its tests, and stops both after them. */
export function useStoreSuite(name: string): StoreSuite {
  const suite = {} as StoreSuite;
  suite.account = async () => {
    const created = await signUp(suite.app.http);
    await suite.app.app.get(AccountsService).setPlan(created.email, 'business');
    return created;
  };
  suite.listPet = (owner, status = 'available') => createPet(suite.app.http, owner, { status });
  suite.listedPet = (status = 'available') => suite.listPet(suite.lister, status);
  suite.orderIn = async (status, by) => {
    const pet = await suite.listedPet();
    const placer = by ?? (await suite.account());
    let order = await placeOrder(suite.app.http, placer, pet.id);
    const path: Partial<Record<OrderStatus, string[]>> = {
      approved: ['approve'],
      delivered: ['approve', 'deliver'],
      cancelled: ['cancel'],
      returned: ['approve', 'deliver', 'return'],
    };
    for (const operation of path[status] ?? [])
      order = (await transition(suite.app.http, suite.lister, order.id, operation).expect(200)).body;
    return { order, adopter: placer };
  };
  beforeAll(async () => {
    suite.database = await suiteDatabase(name);
    suite.app = await createApiApp({
      env: {
        DATABASE_URL: suite.database.url,
        ORDER_HOLD_SECONDS: String(STORE_SETTINGS.holdSeconds),
        ORDERS_MAX_OPEN_PER_ACCOUNT: String(STORE_SETTINGS.maxOpen),
      },
    });
    [suite.lister, suite.adopter, suite.stranger] = [
      await suite.account(),
      await suite.account(),
      await suite.account(),
    ];
  });
  afterAll(async () => {
    await suite.app.close();
    await suite.database.drop();
  });
  return suite;
}
