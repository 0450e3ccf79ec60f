import { accountsOf } from './application-scenarios';
import { listSeededPets, withClient } from './support/database';
import { type LoadRequest, runLoad } from './support/load';
import { json } from './support/requests';
import type { ScenarioContext } from './support/scenario';

/** Pets approved for at once, one application each, and the applications of the one pet approved for at once. */
const PETS = 50;
const RIVALS = 20;

/** What the races came to: every round held exactly one order per pet, or the bench threw. */
export interface ApprovalRacesResult {
  rounds: number;
  pets: number;
  approvals: number;
  statuses: Record<string, number>;
}

async function post(context: ScenarioContext, key: string, path: string, body?: unknown): Promise<{ id: string }> {
  const response = await fetch(`${context.apiUrl}${path}`, {
    method: 'POST',
    headers: json(key),
    body: JSON.stringify(body ?? {}),
  });
  if (response.status !== 200 && response.status !== 201)
    throw new Error(`approval races: POST ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/**
 * One round: PETS fresh pets with an application each under review, and one more pet with RIVALS, all 70
 * approved at once over as many connections. Throws unless each pet has exactly one order and one approved
 * application, every approval for the PETS answered 200 and one of the RIVALS.
 */
async function round(context: ScenarioContext, number: number): Promise<Record<string, number>> {
  const { races } = await accountsOf(context);
  const pets = await listSeededPets(context.stores, races.accountId, PETS + 1);
  if (pets.length < PETS + 1) throw new Error(`approval races found ${pets.length} pets to list`);
  const applied = [...pets.slice(0, PETS), ...Array<number>(RIVALS).fill(pets[PETS]!)];
  const approvals: LoadRequest[] = [];
  for (const [i, petId] of applied.entries()) {
    const { id } = await post(context, context.key, `/v1/pets/${petId}/applications`, {
      answers: {},
      contact: { name: 'Bench Rival', email: `race-${number}-${i}@bench.example` },
    });
    await post(context, races.key, `/v1/applications/${id}/review`);
    approvals.push({ method: 'POST', path: `/v1/applications/${id}/approve`, headers: json(races.key), body: '{}' });
  }
  const { statuses } = await runLoad({
    url: context.apiUrl,
    connections: approvals.length,
    amount: approvals.length,
    dealt: true,
    requests: approvals,
  });
  const orders = await withClient(context.stores, async (client) => {
    const { rows } = await client.query<{ pet_id: string; orders: string; approved: string }>(
      `SELECT p.id AS pet_id,
              (SELECT count(*) FROM orders o WHERE o.pet_id = p.id) AS orders,
              (SELECT count(*) FROM applications a WHERE a.pet_id = p.id AND a.status = 'approved') AS approved
         FROM pets p WHERE p.id = ANY($1::bigint[])`,
      [pets],
    );
    return rows;
  });
  const broken = orders.filter((pet) => pet.orders !== '1' || pet.approved !== '1');
  if (broken.length > 0 || orders.length !== pets.length)
    throw new Error(
      `approval races, round ${number}: expected one order and one approved application per pet, got ` +
        JSON.stringify(broken),
    );
  if (statuses['200'] !== PETS + 1 || statuses['409'] !== RIVALS - 1)
    throw new Error(
      `approval races, round ${number}: expected ${PETS + 1} approvals answered 200 and ${RIVALS - 1} 409, ` +
        `got ${JSON.stringify(statuses)}`,
    );
  return statuses;
}

/**
 * Approvals racing on the real api, under the load of all of them at once: `rounds` rounds of PETS pets
 * approved for together and RIVALS approvals for one pet. The e2e suite proves the rule; this records that
 * it holds at the bench's concurrency, and fails the run when it does not.
 */
export async function checkApprovalRaces(context: ScenarioContext, rounds: number): Promise<ApprovalRacesResult> {
  const statuses: Record<string, number> = {};
  for (let number = 1; number <= rounds; number++)
    for (const [status, count] of Object.entries(await round(context, number)))
      statuses[status] = (statuses[status] ?? 0) + count;
  return { rounds, pets: PETS + 1, approvals: PETS + RIVALS, statuses };
}
