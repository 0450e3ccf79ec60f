import type { SqlFragment } from '@app/database';
import { applicationsPage } from '../../libs/applications/src/applications.repository';
import { suiteDatabase, SuiteDatabase, withDatabase } from '../support/database';
import { PlanNode, rowsRead } from '../support/plans';

/** A shelter's inbox after years of applications. */
const INBOX = 50_000;

/** A page of the lister's inbox reads about a page's rows through its own index, however full the table. */
describe('the plan of a page of applications', () => {
  let database: SuiteDatabase;
  let lister: number;

  beforeAll(async () => {
    database = await suiteDatabase('application_plans');
    lister = await withDatabase(async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO accounts (email, email_canonical) VALUES ('l@example.com', 'l@example.com'), ('a@example.com', 'a@example.com')
         RETURNING id`,
      );
      await client.query(
        `INSERT INTO applications (id, pet_id, applicant_account_id, lister_account_id, status, form_version, answers,
                                   contact_email_canonical, history)
         SELECT 'app_plan_' || i, i, $2, $1, CASE WHEN i % 10 = 0 THEN 'submitted' ELSE 'declined' END, 0, '[]',
                'p' || i || '@example.com', '[]'
           FROM generate_series(1, $3) i`,
        [rows[0]!.id, rows[1]!.id, INBOX],
      );
      // The lister's own applications for another shelter's pets, newer: a walk of all applications by seq would
      // read them all before the lister's inbox.
      await client.query(
        `INSERT INTO applications (id, pet_id, applicant_account_id, lister_account_id, status, form_version, answers,
                                   contact_email_canonical, history)
         SELECT 'app_other_' || i, i, $1, $2, 'declined', 0, '[]', 'o' || i || '@example.com', '[]'
           FROM generate_series(1, $3) i`,
        [rows[0]!.id, rows[1]!.id, INBOX],
      );
      await client.query('ANALYZE applications');
      return Number(rows[0]!.id);
    }, database.url);
  }, 120_000);
  afterAll(() => database.drop());

  const explain = (statement: SqlFragment) =>
    withDatabase(async (client) => {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, [...statement.values]);
      return rowsRead((rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan, 'applications');
    }, database.url);

  it.each([
    ['the first page', { limit: 20 }],
    ['a later page', { limit: 20, beforeSeq: INBOX / 2 }],
    ['the lister’s side', { limit: 20, role: 'lister' as const }],
    ['one status', { limit: 20, role: 'lister' as const, status: 'submitted' as const }],
  ])(`reads about a page of ${INBOX} applications: %s`, async (_what, listing) => {
    // Each side reads at most a page and one more.
    const read = await explain(applicationsPage(lister, listing));
    expect(read).toBeGreaterThanOrEqual(listing.limit);
    expect(read).toBeLessThanOrEqual(2 * (listing.limit + 1));
  });
});
