-- Written by `npm run sql` from libs/saved-searches/src/saved-searches.repository.ts: do not edit.

-- SavedSearchesRepository.create
SELECT
  pg_advisory_xact_lock($1, hashtext ($2::text))

INSERT INTO
  saved_searches (id, account_id, name, query, filters, terms)
SELECT
  $1,
  $2,
  $3,
  $4,
  $5::jsonb,
  $6::text[]
WHERE
  (
    SELECT
      count(*)
    FROM
      saved_searches
    WHERE
      account_id = $7
  ) < $8
RETURNING
  id,
  account_id,
  name,
  query,
  created_at

-- SavedSearchesRepository.delete
DELETE FROM saved_searches
WHERE
  id = $1
  AND account_id = $2

-- SavedSearchesRepository.filedUnder
SELECT DISTINCT
  ON (s.id) s.id,
  s.account_id,
  s.filters,
  s.terms
FROM
  unnest($1::text[]) AS term
  JOIN saved_searches s ON s.terms @> ARRAY[term]
ORDER BY
  s.id

-- SavedSearchesRepository.findOne
SELECT
  id,
  account_id,
  name,
  query,
  created_at
FROM
  saved_searches
WHERE
  id = $1
  AND account_id = $2

-- SavedSearchesRepository.list
SELECT
  id,
  account_id,
  name,
  query,
  created_at
FROM
  saved_searches
WHERE
  account_id = $1
ORDER BY
  created_at,
  id
