import { pastRetention } from '../libs/applications/src/applications.repository';
import { suiteDatabase, SuiteDatabase, withDatabase } from './support/database';
import { PlanNode, rowsRead } from './support/plans';

/** Years of ended applications, erased already. */
const ERASED = 50_000;
const DUE = 30;

/** A run of the retention reads the applications it erases, however many were erased before. */
describe('the plan of the applications past retention', () => {
  let database: SuiteDatabase;

  beforeAll(async () => {
    database = await suiteDatabase('application_retention_plans');
    await withDatabase(async (client) => {
      // One account on both sides: the plan reads no account.
      const account = (
        await client.query<{ id: string }>(`INSERT INTO accounts (email) VALUES ('r@example.com') RETURNING id`)
      ).rows[0]!.id;
      // Ended longest ago, and erased: what a walk of every ended application would read first.
      await client.query(
        `INSERT INTO applications (id, pet_id, applicant_account_id, lister_account_id, status, form_version, answers,
                                   history, ended_at)
         SELECT 'app_erased_' || i, i, $2, $1, 'declined', 0, '[]', '[]', now() - interval '800 days' + i * interval '1 second'
           FROM generate_series(1, $3) i`,
        [account, account, ERASED],
      );
      await client.query(
        `INSERT INTO applications (id, pet_id, applicant_account_id, lister_account_id, status, form_version, answers,
                                   contact, contact_email_canonical, history, ended_at)
         SELECT 'app_due_' || i, i, $2, $1, 'withdrawn', 0, '[]', '{"name":"A","email":"a@example.com"}',
                'd' || i || '@example.com', '[]', now() - interval '400 days'
           FROM generate_series(1, $3) i`,
        [account, account, DUE],
      );
      await client.query('ANALYZE applications');
    }, database.url);
  }, 120_000);
  afterAll(() => database.drop());

  it(`finds the ${DUE} due past ${ERASED} erased ones, reading only them`, async () => {
    const statement = pastRetention(365, 500);
    const plan = await withDatabase(async (client) => {
      const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, [...statement.values]);
      return (rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
    }, database.url);
    expect(rowsRead(plan, 'applications')).toBe(DUE);
    expect(JSON.stringify(plan)).toContain('"Index Name":"applications_retention_due_idx"');
  });
});
