import { MigrationInterface, QueryRunner } from 'typeorm';

const OPEN = `status IN ('submitted', 'under_review', 'approved')`;

/**
 * Adoption applications: each lister's form, the applications and their conversations, and the meetings
 * with the animal. New tables only, created in one transaction; on `orders` one column with a constant
 * default (stored in the catalogue, no rewrite), and on `api_keys` its scopes' CHECK widened for the two
 * new scopes, added NOT VALID in that transaction and validated after it, under a lock that lets reads and
 * writes go on. A run cut off after the commit validates on the next.
 *
 * An application keeps its `pet_id` and `order_id` with no foreign key, as orders keep theirs: a removed
 * pet's applications stay, closed. The unique index of open applications by pet and contact email is the
 * rule that one person has one open application per pet, kept by PostgreSQL whatever races. `ended_at` is
 * when an application became `declined`, `withdrawn` or `closed`, what the retention reads.
 * `seq`, drawn from an identity column, orders the lists; it has no index of its own, which the planner would
 * walk for a page of one account's applications, reading every newer one of other accounts first.
 */
export class Applications1797510000000 implements MigrationInterface {
  name = 'Applications1797510000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ done }] = await queryRunner.query(`SELECT to_regclass('meetings') IS NOT NULL AS done`);
    if (!done) await this.createTables(queryRunner);
    await queryRunner.query(`ALTER TABLE api_keys VALIDATE CONSTRAINT api_keys_scopes_check`);
  }

  /** Everything but the CHECK's validation, in one transaction: all of it is there, or none. */
  private async createTables(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.startTransaction();
    await queryRunner.query(`
      CREATE TABLE application_forms (
        account_id bigint PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version >= 1),
        fields jsonb NOT NULL,
        notify_email text,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE applications (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        pet_id bigint NOT NULL,
        applicant_account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        lister_account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'submitted'
          CHECK (status IN ('submitted', 'under_review', 'approved', 'adopted', 'declined', 'withdrawn', 'closed')),
        form_version integer NOT NULL,
        answers jsonb NOT NULL,
        contact jsonb,
        contact_email_canonical text,
        email_consent boolean NOT NULL DEFAULT false,
        order_id bigint,
        closed_reason text,
        history jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX applications_lister_idx ON applications (lister_account_id, seq DESC)`);
    await queryRunner.query(
      `CREATE INDEX applications_lister_status_idx ON applications (lister_account_id, status, seq DESC)`,
    );
    await queryRunner.query(`CREATE INDEX applications_applicant_idx ON applications (applicant_account_id, seq DESC)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX applications_open_per_pet_idx ON applications (pet_id, contact_email_canonical) WHERE ${OPEN}`,
    );
    await queryRunner.query(
      `CREATE INDEX applications_open_per_contact_idx ON applications (contact_email_canonical) WHERE ${OPEN}`,
    );
    await queryRunner.query(
      `CREATE INDEX applications_order_idx ON applications (order_id) WHERE order_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX applications_ended_idx ON applications (ended_at) WHERE ended_at IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE application_messages (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
        sender text NOT NULL CHECK (sender IN ('applicant', 'lister')),
        body text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX application_messages_application_idx ON application_messages (application_id, seq)`,
    );
    await queryRunner.query(`
      CREATE TABLE meetings (
        id text PRIMARY KEY,
        application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL CHECK (ends_at > starts_at),
        location text,
        status text NOT NULL DEFAULT 'proposed' CHECK (status IN ('proposed', 'accepted', 'declined', 'cancelled')),
        reminded_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX meetings_application_idx ON meetings (application_id, starts_at, id)`);
    await queryRunner.query(
      `CREATE INDEX meetings_reminder_due_idx ON meetings (starts_at) WHERE status = 'accepted' AND reminded_at IS NULL`,
    );
    // The order an approval places is not counted against the adopter's open-orders cap.
    await queryRunner.query(`ALTER TABLE orders ADD COLUMN placed_by_application boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check`);
    await queryRunner.query(
      `ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check CHECK (cardinality(scopes) BETWEEN 1 AND 19) NOT VALID`,
    );
    await queryRunner.commitTransaction();
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE api_keys DROP CONSTRAINT api_keys_scopes_check`);
    await queryRunner.query(
      `ALTER TABLE api_keys ADD CONSTRAINT api_keys_scopes_check CHECK (cardinality(scopes) BETWEEN 1 AND 17) NOT VALID`,
    );
    await queryRunner.query(`ALTER TABLE orders DROP COLUMN placed_by_application`);
    await queryRunner.query(`DROP TABLE meetings, application_messages, applications, application_forms`);
  }
}
