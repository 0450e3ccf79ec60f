-- Written by `npm run sql` from libs/saved-searches/src/matching/saved-search-matches.repository.ts: do not edit.

-- SavedSearchMatchesRepository.lockMatcher
SELECT
  pg_try_advisory_xact_lock(731044207, 0) AS locked

-- SavedSearchMatchesRepository.match
WITH
  changes AS (
    SELECT
      c.change::int AS change,
      c.pet_id,
      c.lister,
      c.latitude,
      c.longitude,
      to_tsvector(
        'pet_search'::regconfig,
        c.name || ' ' || coalesce(c.breed, '') || ' ' || coalesce(c.description, '')
      ) AS words,
      lag(c.change::int) OVER pet AS previous,
      lead(c.change) OVER pet IS NULL AS last
    FROM
      unnest(
        $1::bigint[],
        $2::bigint[],
        $3::text[],
        $4::text[],
        $5::text[],
        $6::float8[],
        $7::float8[]
      ) WITH ORDINALITY AS c (
        pet_id,
        lister,
        name,
        breed,
        description,
        latitude,
        longitude,
        change
      )
    WINDOW
      pet AS (
        PARTITION BY
          c.pet_id
        ORDER BY
          c.change
      )
  ),
  terms AS (
    SELECT
      t.change,
      array_agg(t.term) AS lookup,
      coalesce(
        array_agg(t.term) FILTER (
          WHERE
            t.own
        ),
        '{}'
      ) AS own
    FROM
      unnest($8::int[], $9::text[], $10::bool[]) AS t (change, term, own)
    GROUP BY
      t.change
  ),
  candidates AS (
    SELECT
      c.change,
      c.pet_id,
      c.words,
      c.latitude,
      c.longitude,
      t.own,
      s.*
    FROM
      changes c
      JOIN terms t ON t.change = c.change
      CROSS JOIN LATERAL (
        SELECT
          s.id AS saved_search_id,
          s.account_id,
          s.required,
          s.choices,
          s.filters ->> 'q' AS q,
          s.filters ->> 'near' AS near,
          (s.filters ->> 'radiusKm')::float8 AS radius_km
        FROM
          saved_searches s
        WHERE
          s.terms && t.lookup
          AND s.account_id <> c.lister
      ) s
  ),
  evaluated AS (
    SELECT
      change,
      pet_id,
      saved_search_id,
      account_id,
      required <@ own
      AND (
        choices IS NULL
        OR NOT EXISTS (
          SELECT
          FROM
            jsonb_array_elements(choices) AS choice
          WHERE
            NOT choice ?| own
        )
      )
      AND (
        near IS NULL
        OR earth_distance (
          ll_to_earth (
            split_part(near, ',', 1)::float8,
            split_part(near, ',', 2)::float8
          ),
          ll_to_earth (latitude, longitude)
        ) <= radius_km * 1000
      )
      AND (
        q IS NULL
        OR words @@ plainto_tsquery('pet_search'::regconfig, q)
      ) AS passes
    FROM
      candidates
  ),
  matched AS (
    SELECT
      change,
      pet_id,
      saved_search_id,
      account_id
    FROM
      evaluated
    WHERE
      passes
  ),
  ended AS (
    DELETE FROM saved_search_matches m USING changes c
    WHERE
      c.last
      AND m.pet_id = c.pet_id
      AND NOT EXISTS (
        SELECT
        FROM
          matched n
        WHERE
          n.change = c.change
          AND n.saved_search_id = m.saved_search_id
      )
  ),
  begun AS (
    INSERT INTO
      saved_search_matches (pet_id, saved_search_id)
    SELECT
      n.pet_id,
      n.saved_search_id
    FROM
      matched n
      JOIN changes c ON c.change = n.change
    WHERE
      c.last
    ON CONFLICT DO NOTHING
  ),
  alerts AS (
    SELECT
      n.change,
      n.saved_search_id,
      n.account_id
    FROM
      matched n
      JOIN changes c ON c.change = n.change
    WHERE
      NOT EXISTS (
        SELECT
        FROM
          matched p
        WHERE
          p.change = c.previous
          AND p.saved_search_id = n.saved_search_id
      )
      AND (
        c.previous IS NOT NULL
        OR NOT EXISTS (
          SELECT
          FROM
            saved_search_matches m
          WHERE
            m.pet_id = n.pet_id
            AND m.saved_search_id = n.saved_search_id
        )
      )
  )
  -- One row more, without an alert, carries the count of candidates.
SELECT
  change,
  saved_search_id,
  account_id,
  NULL AS candidates
FROM
  alerts
UNION ALL
SELECT
  NULL,
  NULL,
  NULL,
  count(*)
FROM
  evaluated
ORDER BY
  change,
  saved_search_id
