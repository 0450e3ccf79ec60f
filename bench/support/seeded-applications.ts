import { seededSecret, type Stores, withClient } from './database';

/** A seeded account the applications' scenarios act as: its id for SQL, its key for requests. */
export interface SeededCaller {
  accountId: number;
  key: string;
}

/** How many seeded accounts list and apply in `list-applications-spread`. */
export const CALLERS = 1000;
/** Applications each caller has as applicant, and as lister, in `list-applications-spread`. */
const PER_CALLER = 30;

/**
 * The seeded accounts the applications' scenarios use, in the seeded order: the callers of the listing,
 * then one lister for each other part (the two inboxes, the submissions, the approval races).
 */
export async function applicationAccounts(stores: Stores) {
  const ids = await withClient(stores, async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `SELECT id FROM accounts WHERE email LIKE 'seeded-%@bench.example' ORDER BY id LIMIT $1`,
      [CALLERS + 4],
    );
    return rows.map((row) => Number(row.id));
  });
  if (ids.length < CALLERS + 4) throw new Error(`the applications' scenarios need ${CALLERS + 4} seeded accounts`);
  const caller = (accountId: number): SeededCaller => ({ accountId, key: seededSecret(accountId) });
  const [smallInbox, largeInbox, submissions, races] = ids.slice(CALLERS).map(caller);
  return {
    callers: ids.slice(0, CALLERS).map(caller),
    smallInbox: smallInbox!,
    largeInbox: largeInbox!,
    submissions: submissions!,
    races: races!,
  };
}

/**
 * Seeds `count` applications in one statement, the i-th made by the (i mod n)-th of `callers` with its own
 * contact email, so that no cap is reached: for `lister`, or, without one, for the caller 1 to
 * `count / n` places after its applicant (never itself). Half are `submitted`, the rest under review or
 * final in turn, answers and history as a submission stores them. Pet ids are the seeded catalogue's,
 * not their listers' own: no listing reads the pet.
 */
const SEED_APPLICATIONS = `
  INSERT INTO applications (id, pet_id, applicant_account_id, lister_account_id, status, form_version, answers,
                            contact, contact_email_canonical, history, ended_at, closed_reason)
  SELECT 'app_' || substr(md5(email), 1, 24), 1 + i % $4::int, applicant, lister, status, 1,
         '[{"name":"has_garden","label":"A garden?","type":"yesno","value":true},
           {"name":"household","label":"Who lives with you?","type":"textarea","value":"Two adults and a cat."}]',
         jsonb_build_object('name', 'Bench Applicant', 'email', email), email,
         jsonb_build_array(jsonb_build_object('status', 'submitted', 'at', '2026-11-01T10:00:00.000Z', 'by', 'applicant'))
           || CASE WHEN status = 'submitted' THEN '[]'::jsonb
                   ELSE jsonb_build_array(jsonb_build_object('status', status, 'at', '2026-11-02T10:00:00.000Z',
                                                             'by', 'lister')) END,
         CASE WHEN status IN ('declined', 'withdrawn', 'closed') THEN now() END,
         CASE WHEN status = 'closed' THEN 'order_cancelled' END
    FROM (SELECT i, $5::text || '-' || i || '@bench.example' AS email,
                 ($1::bigint[])[1 + i % cardinality($1::bigint[])] AS applicant,
                 coalesce($3::bigint,
                          ($1::bigint[])[1 + (i % cardinality($1::bigint[]) + 1 + i / cardinality($1::bigint[]))
                                              % cardinality($1::bigint[])]) AS lister,
                 CASE WHEN i % 2 = 0 THEN 'submitted'
                      ELSE (ARRAY['under_review', 'declined', 'withdrawn', 'closed', 'adopted'])[1 + (i / 2) % 5] END
                   AS status
            FROM generate_series(0, $2::int - 1) AS i) AS seeded`;

/** Applications among the callers: PER_CALLER made and PER_CALLER received by each. */
export async function seedCallersApplications(stores: Stores, callers: SeededCaller[], pets: number): Promise<void> {
  await seed(stores, callers, callers.length * PER_CALLER, null, pets, 'listing');
}

/** `count` applications received by `lister` from the callers; the seq range of its inbox. */
export async function seedInbox(
  stores: Stores,
  callers: SeededCaller[],
  lister: SeededCaller,
  count: number,
  pets: number,
): Promise<{ first: number; last: number }> {
  await seed(stores, callers, count, lister.accountId, pets, `inbox${lister.accountId}`);
  return withClient(stores, async (client) => {
    const { rows } = await client.query<{ first: string; last: string }>(
      'SELECT min(seq) AS first, max(seq) AS last FROM applications WHERE lister_account_id = $1',
      [lister.accountId],
    );
    return { first: Number(rows[0]!.first), last: Number(rows[0]!.last) };
  });
}

async function seed(
  stores: Stores,
  callers: SeededCaller[],
  count: number,
  lister: number | null,
  pets: number,
  emailPrefix: string,
): Promise<void> {
  await withClient(stores, async (client) => {
    await client.query(SEED_APPLICATIONS, [
      callers.map(({ accountId }) => accountId),
      count,
      lister,
      pets,
      emailPrefix,
    ]);
    await client.query('VACUUM ANALYZE applications');
  });
}

/** Forgets the applications `lister` received (their messages go with them). */
export async function deleteApplicationsTo(stores: Stores, lister: SeededCaller): Promise<void> {
  await withClient(stores, (client) =>
    client.query('DELETE FROM applications WHERE lister_account_id = $1', [lister.accountId]),
  );
}
