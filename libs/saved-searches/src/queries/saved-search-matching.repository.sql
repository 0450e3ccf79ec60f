-- Written by `npm run sql` from libs/saved-searches/src/matching/saved-search-matching.repository.ts: do not edit.

-- SavedSearchMatchingRepository.keepStates
WITH
  kept AS (
    INSERT INTO
      saved_search_pet_states (pet_id, pet)
    SELECT
      (pet ->> 'id')::bigint,
      pet
    FROM
      unnest($1::jsonb[]) AS pet
    ON CONFLICT (pet_id) DO UPDATE
    SET
      pet = excluded.pet
  )
DELETE FROM saved_search_pet_states
WHERE
  pet_id = ANY ($2::bigint[])

-- SavedSearchMatchingRepository.lockPartition
SELECT
  pg_try_advisory_xact_lock($1, $2) AS locked

-- SavedSearchMatchingRepository.recordAlerts
WITH
  states AS MATERIALIZED (
    SELECT
      s.state,
      coalesce(o.own, '{}') AS own,
      ll_to_earth (s.latitude, s.longitude) AS place,
      to_tsvector(
        'pet_search'::regconfig,
        s.name || ' ' || coalesce(s.breed, '') || ' ' || coalesce(s.description, '')
      ) AS words
    FROM
      unnest(
        $1::text[],
        $2::text[],
        $3::text[],
        $4::float8[],
        $5::float8[]
      ) WITH ORDINALITY AS s (
        name,
        breed,
        description,
        latitude,
        longitude,
        state
      )
      LEFT JOIN (
        SELECT
          o.state,
          array_agg(o.term) AS own
        FROM
          unnest($6::int[], $7::text[]) AS o (state, term)
        GROUP BY
          o.state
      ) o ON o.state = s.state
  ),
  judged AS MATERIALIZED (
    SELECT
      c.change,
      c.change_id,
      c.lister,
      c.changed_at,
      c.pet_id,
      c.pet_name,
      l.lookup,
      a.own AS after_own,
      a.place AS after_place,
      a.words AS after_words,
      b.own AS before_own,
      b.place AS before_place,
      b.words AS before_words
    FROM
      unnest(
        $8::int[],
        $9::text[],
        $10::bigint[],
        $11::timestamptz[],
        $12::int[],
        $13::int[],
        $14::bigint[],
        $15::text[]
      ) AS c (
        change,
        change_id,
        lister,
        changed_at,
        after_state,
        before_state,
        pet_id,
        pet_name
      )
      JOIN states a ON a.state = c.after_state
      LEFT JOIN states b ON b.state = c.before_state
      JOIN (
        SELECT
          l.change,
          array_agg(l.term) AS lookup
        FROM
          unnest($16::int[], $17::text[]) AS l (change, term)
        GROUP BY
          l.change
      ) l ON l.change = c.change
  ),
  matched AS MATERIALIZED (
    SELECT
      c.change,
      c.change_id,
      c.pet_id,
      c.pet_name,
      s.id AS saved_search_id,
      s.account_id,
      s.email_alerts
    FROM
      judged c
      CROSS JOIN LATERAL (
        SELECT
          *
        FROM
          saved_searches s
        WHERE
          s.terms && c.lookup
          AND s.account_id <> c.lister
          AND date_trunc('milliseconds', s.created_at) <= c.changed_at
      ) s
    WHERE
      (
        s.required <@ c.after_own
        AND (
          s.choices IS NULL
          OR NOT EXISTS (
            SELECT
            FROM
              jsonb_array_elements(s.choices) AS choice
            WHERE
              NOT choice ?| c.after_own
          )
        )
        AND (
          s.near_origin IS NULL
          OR (
            cube_distance (s.near_origin, c.after_place) <= 2 * 6378168 * sin(s.near_radius_metres / (2 * 6378168)) * (1 + 1e-9)
            AND earth_distance (s.near_origin, c.after_place) <= s.near_radius_metres
          )
        )
        AND (
          s.q_query IS NULL
          OR c.after_words @@ s.q_query
        )
      )
      AND NOT coalesce(
        (
          s.required <@ c.before_own
          AND (
            s.choices IS NULL
            OR NOT EXISTS (
              SELECT
              FROM
                jsonb_array_elements(s.choices) AS choice
              WHERE
                NOT choice ?| c.before_own
            )
          )
          AND (
            s.near_origin IS NULL
            OR (
              cube_distance (s.near_origin, c.before_place) <= 2 * 6378168 * sin(s.near_radius_metres / (2 * 6378168)) * (1 + 1e-9)
              AND earth_distance (s.near_origin, c.before_place) <= s.near_radius_metres
            )
          )
          AND (
            s.q_query IS NULL
            OR c.before_words @@ s.q_query
          )
        ),
        false
      )
  ),
  emailed AS (
    INSERT INTO
      saved_search_email_matches (saved_search_id, pet_id, pet_name)
    SELECT
      saved_search_id,
      pet_id,
      pet_name
    FROM
      matched
    WHERE
      email_alerts
    ON CONFLICT (saved_search_id, pet_id) DO NOTHING
  ),
  subscribed AS MATERIALIZED (
    SELECT
      w.account_id
    FROM
      webhook_endpoints w
    WHERE
      w.account_id IN (
        SELECT
          account_id
        FROM
          matched
      )
      AND w.enabled
      AND (
        $18::text <> $19
        AND w.event_types && ARRAY[$20, $21::text]
      )
  ),
  recorded AS (
    INSERT INTO
      saved_search_alerts (account_id, change_id, saved_search_id)
    SELECT
      account_id,
      change_id,
      saved_search_id
    FROM
      (
        SELECT
          account_id,
          change_id,
          saved_search_id
        FROM
          matched
        WHERE
          account_id NOT IN (
            SELECT
              account_id
            FROM
              subscribed
          )
        ORDER BY
          change
      ) AS a
  )
SELECT
  change,
  saved_search_id,
  account_id
FROM
  matched
WHERE
  account_id IN (
    SELECT
      account_id
    FROM
      subscribed
  )
ORDER BY
  change,
  saved_search_id

-- SavedSearchMatchingRepository.states
SELECT
  pet_id,
  pet
FROM
  saved_search_pet_states
WHERE
  pet_id = ANY ($1::bigint[])
