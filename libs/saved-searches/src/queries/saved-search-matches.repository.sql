-- Written by `npm run sql` from libs/saved-searches/src/matching/saved-search-matches.repository.ts: do not edit.

-- SavedSearchMatchesRepository.apply
DELETE FROM saved_search_matches m USING unnest($1::bigint[], $2::text[]) AS ended (pet_id, saved_search_id)
WHERE
  m.pet_id = ended.pet_id
  AND m.saved_search_id = ended.saved_search_id

INSERT INTO
  saved_search_matches (pet_id, saved_search_id)
SELECT
  *
FROM
  unnest($1::bigint[], $2::text[])

-- SavedSearchMatchesRepository.current
SELECT
  pet_id,
  saved_search_id
FROM
  saved_search_matches
WHERE
  pet_id = ANY ($1::bigint[])

-- SavedSearchMatchesRepository.lockMatcher
SELECT
  pg_try_advisory_xact_lock(731044207, 0) AS locked

-- SavedSearchMatchesRepository.passing
WITH
  pets AS (
    SELECT
      array_agg(
        to_tsvector(
          'pet_search'::regconfig,
          name || ' ' || coalesce(breed, '') || ' ' || coalesce(description, '')
        )
        ORDER BY
          pet
      ) AS words
    FROM
      unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS p (name, breed, description, pet)
  )
SELECT
  c.pair::int AS pair
FROM
  pets,
  unnest(
    $4::int[],
    $5::text[],
    $6::float8[],
    $7::float8[],
    $8::float8[],
    $9::float8[],
    $10::float8[]
  ) WITH ORDINALITY AS c (
    pet,
    q,
    latitude,
    longitude,
    near_latitude,
    near_longitude,
    radius_metres,
    pair
  )
WHERE
  (
    c.q IS NULL
    OR pets.words[c.pet] @@ plainto_tsquery('pet_search'::regconfig, c.q)
  )
  AND (
    c.near_latitude IS NULL
    OR earth_distance (
      ll_to_earth (c.near_latitude, c.near_longitude),
      ll_to_earth (c.latitude, c.longitude)
    ) <= c.radius_metres
  )
