import { randomUUID } from 'node:crypto';
import type TestAgent from 'supertest/lib/agent';

export interface TestAccount {
  accountId: number;
  keyId: number;
  key: string;
  email: string;
  auth: { Authorization: string };
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID()}@example.com`;
}

/** Signs up through the API, as a client would. */
export async function signUp(
  http: TestAgent,
  email = uniqueEmail(),
  headers: Record<string, string> = {},
): Promise<TestAccount> {
  const response = await http.post('/v1/accounts').set(headers).send({ email }).expect(201);
  const { account, apiKey } = response.body as { account: { id: number }; apiKey: { id: number; key: string } };
  return {
    accountId: account.id,
    keyId: apiKey.id,
    key: apiKey.key,
    email,
    auth: { Authorization: `Bearer ${apiKey.key}` },
  };
}

/** A Pet as the API answers it, with the fields the suites read. */
export interface TestPet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

export async function createPet(
  http: TestAgent,
  account: TestAccount,
  pet: Record<string, unknown> = {},
): Promise<TestPet> {
  const response = await http
    .post('/v1/pets')
    .set(account.auth)
    .send({ name: 'Rex', categoryId: 1, ...pet })
    .expect(201);
  return response.body;
}

/** `count` pets of the account, a hundred requests at a time (the account's plan must allow as many), by id. */
export async function createPets(http: TestAgent, account: TestAccount, count: number): Promise<TestPet[]> {
  const pets: TestPet[] = [];
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, (_, index) =>
      createPet(http, account, { name: `Pet ${start + index}` }),
    );
    pets.push(...(await Promise.all(batch)));
  }
  return pets.sort((a, b) => a.id - b.id);
}
