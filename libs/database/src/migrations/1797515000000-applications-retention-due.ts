import { MigrationInterface, QueryRunner } from 'typeorm';
import { buildIndexConcurrently } from './kept-column';

/**
 * The applications the retention has still to erase: ended (`ended_at` set) and holding their contact, by when
 * they ended. The retention reads the oldest of them; an erased application leaves the index, so a run reads
 * only what it erases however many were erased before. Built CONCURRENTLY: reads and writes go on. Can run again.
 */
export class ApplicationsRetentionDue1797515000000 implements MigrationInterface {
  name = 'ApplicationsRetentionDue1797515000000';
  transaction = false;

  async up(queryRunner: QueryRunner): Promise<void> {
    await buildIndexConcurrently(
      queryRunner,
      'applications_retention_due_idx',
      'applications (ended_at) WHERE ended_at IS NOT NULL AND contact IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX applications_retention_due_idx');
  }
}
