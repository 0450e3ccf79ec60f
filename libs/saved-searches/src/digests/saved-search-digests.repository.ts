import { GenerateSql, Sql, sql } from '@app/database';
import { Injectable } from '@nestjs/common';

/** A search whose digest is due: its owner's email and the pets that came to match since the last one. */
export interface DueDigest {
  savedSearchId: string;
  name: string | null;
  query: string;
  email: string;
  /** Oldest match first. */
  pets: Array<{ id: number; name: string }>;
}

/** `saved_search_email_matches`, and the searches' `emailed_at`: what each digest lists, and when the last went. */
@Injectable()
export class SavedSearchDigestsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Takes up to `limit` due digests: the searches with email alerts and pets that came to match, whose last
   * digest is at least `minutes` old (or none went yet), skipping those another worker takes. In one statement
   * each is stamped as emailed now and its matches are removed, so that a match the matcher records meanwhile
   * waits for the next digest; the caller's transaction enqueues the emails with it.
   */
  @GenerateSql({ params: [100, 60] })
  async takeDue(limit: number, minutes: number): Promise<DueDigest[]> {
    const rows = await this.sql.rows<{
      id: string;
      name: string | null;
      query: string;
      email: string;
      pets: Array<{ id: string; name: string }>;
    }>(
      sql`WITH due AS (
            SELECT s.id, s.account_id, s.name, s.query FROM saved_searches s
             WHERE s.email_alerts
               AND (s.emailed_at IS NULL OR s.emailed_at <= now() - ${minutes} * interval '1 minute')
               AND EXISTS (SELECT FROM saved_search_email_matches m WHERE m.saved_search_id = s.id)
             ORDER BY s.id
             LIMIT ${limit}
               FOR UPDATE OF s SKIP LOCKED),
          stamped AS (UPDATE saved_searches s SET emailed_at = now() FROM due WHERE s.id = due.id),
          taken AS (
            DELETE FROM saved_search_email_matches m USING due WHERE m.saved_search_id = due.id
         RETURNING m.saved_search_id, m.pet_id, m.pet_name, m.matched_at)
          SELECT due.id, due.name, due.query, a.email,
                 (SELECT json_agg(json_build_object('id', t.pet_id, 'name', t.pet_name) ORDER BY t.matched_at, t.pet_id)
                    FROM taken t WHERE t.saved_search_id = due.id) AS pets
            FROM due JOIN accounts a ON a.id = due.account_id`,
    );
    return rows.map((row) => ({
      savedSearchId: row.id,
      name: row.name,
      query: row.query,
      email: row.email,
      pets: row.pets.map((pet) => ({ id: Number(pet.id), name: pet.name })),
    }));
  }
}
