-- Written by `npm run sql` from libs/saved-searches/src/digests/saved-search-digests.repository.ts: do not edit.

-- SavedSearchDigestsRepository.takeDue
WITH
  due AS (
    SELECT
      s.id,
      s.account_id,
      s.name,
      s.query
    FROM
      saved_searches s
    WHERE
      s.email_alerts
      AND (
        s.emailed_at IS NULL
        OR s.emailed_at <= now() - $1 * interval '1 minute'
      )
      AND EXISTS (
        SELECT
        FROM
          saved_search_email_matches m
        WHERE
          m.saved_search_id = s.id
      )
    ORDER BY
      s.id
    LIMIT
      $2
    FOR UPDATE OF
      s SKIP LOCKED
  ),
  stamped AS (
    UPDATE saved_searches s
    SET
      emailed_at = now()
    FROM
      due
    WHERE
      s.id = due.id
  ),
  taken AS (
    DELETE FROM saved_search_email_matches m USING due
    WHERE
      m.saved_search_id = due.id
    RETURNING
      m.saved_search_id,
      m.pet_id,
      m.pet_name,
      m.matched_at
  )
SELECT
  due.id,
  due.name,
  due.query,
  a.email,
  (
    SELECT
      json_agg(
        json_build_object('id', t.pet_id, 'name', t.pet_name)
        ORDER BY
          t.matched_at,
          t.pet_id
      )
    FROM
      taken t
    WHERE
      t.saved_search_id = due.id
  ) AS pets
FROM
  due
  JOIN accounts a ON a.id = due.account_id
