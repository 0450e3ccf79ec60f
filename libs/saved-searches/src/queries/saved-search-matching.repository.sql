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

-- SavedSearchMatchingRepository.match
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
      c.lister,
      c.changed_at,
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
        $9::bigint[],
        $10::timestamptz[],
        $11::int[],
        $12::int[]
      ) AS c (
        change,
        lister,
        changed_at,
        after_state,
        before_state
      )
      JOIN states a ON a.state = c.after_state
      LEFT JOIN states b ON b.state = c.before_state
      JOIN (
        SELECT
          l.change,
          array_agg(l.term) AS lookup
        FROM
          unnest($13::int[], $14::text[]) AS l (change, term)
        GROUP BY
          l.change
      ) l ON l.change = c.change
  )
SELECT
  c.change,
  s.id AS saved_search_id,
  s.account_id
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
      OR earth_distance (s.near_origin, c.after_place) <= s.near_radius_metres
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
        OR earth_distance (s.near_origin, c.before_place) <= s.near_radius_metres
      )
      AND (
        s.q_query IS NULL
        OR c.before_words @@ s.q_query
      )
    ),
    false
  )
ORDER BY
  c.change,
  s.id

-- SavedSearchMatchingRepository.states
SELECT
  pet_id,
  pet
FROM
  saved_search_pet_states
WHERE
  pet_id = ANY ($1::bigint[])
