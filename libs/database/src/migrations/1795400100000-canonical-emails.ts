import { Logger } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalEmail, characterCount } from '@app/core';

/** As `SignUpDto.email`: a longer canonical form is refused at sign-up. */
const MAX_CANONICAL_LENGTH = 254;

export class CanonicalEmails1795400100000 implements MigrationInterface {
  name = 'CanonicalEmails1795400100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // One account per canonical email (see canonicalEmail), where lower(email) let `xß@` and `xSS@`, or
    // fullwidth and ASCII letters, sign up twice. The form is computed here, as the service computes it.
    // Sign-ups wait for the few statements below, so that none slips in without its canonical form.
    await queryRunner.query('LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE');
    await queryRunner.query('ALTER TABLE accounts ADD COLUMN email_canonical text');
    const accounts: Array<{ id: string; email: string }> = await queryRunner.query(
      'SELECT id, email FROM accounts ORDER BY id',
    );
    // Accounts that already share a canonical email stay as they are, and the oldest keeps the form:
    // merging or renaming them is for their owners to decide. The others keep a null canonical email,
    // which the unique index lets be, and stay reachable by their exact address.
    const taken = new Map<string, string>();
    const unmatched: string[] = [];
    for (const { id, email } of accounts) {
      const canonical = canonicalEmail(email);
      if (taken.has(canonical) || characterCount(canonical) > MAX_CANONICAL_LENGTH) unmatched.push(id);
      else taken.set(canonical, id);
    }
    await queryRunner.query(
      `UPDATE accounts SET email_canonical = form.canonical
         FROM unnest($1::bigint[], $2::text[]) AS form (id, canonical)
        WHERE accounts.id = form.id`,
      [[...taken.values()], [...taken.keys()]],
    );
    await queryRunner.query('CREATE UNIQUE INDEX accounts_email_canonical_key ON accounts (email_canonical)');
    await queryRunner.query('DROP INDEX accounts_email_lower_key');
    if (unmatched.length > 0) {
      new Logger('Database').warn(
        `accounts ${unmatched.join(', ')} share their canonical email with an older account (or have one over ` +
          `${MAX_CANONICAL_LENGTH} characters) and were left without one`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE UNIQUE INDEX accounts_email_lower_key ON accounts (lower(email))');
    await queryRunner.query('ALTER TABLE accounts DROP COLUMN email_canonical');
  }
}
