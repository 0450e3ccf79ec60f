-- Written by `npm run sql` from libs/saved-searches/src/saved-searches.repository.ts: do not edit.

-- SavedSearchesRepository.create
SELECT
  pg_advisory_xact_lock($1, hashtext ($2::text))

INSERT INTO
  saved_searches (
    id,
    account_id,
    name,
    query,
    email_alerts,
    filters,
    terms,
    required,
    choices
  )
SELECT
  $1,
  $2,
  $3,
  $4,
  $5,
  $6::jsonb,
  $7::text[],
  $8::text[],
  $9::jsonb
WHERE
  (
    SELECT
      count(*)
    FROM
      saved_searches
    WHERE
      account_id = $10
  ) < $11
RETURNING
  id,
  account_id,
  name,
  query,
  email_alerts,
  created_at

-- SavedSearchesRepository.delete
DELETE FROM saved_searches
WHERE
  id = $1
  AND account_id = $2

-- SavedSearchesRepository.findOne
SELECT
  id,
  account_id,
  name,
  query,
  email_alerts,
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
  email_alerts,
  created_at
FROM
  saved_searches
WHERE
  account_id = $1
ORDER BY
  created_at,
  id

-- SavedSearchesRepository.update
UPDATE saved_searches
SET
  name = coalesce($1, name),
  email_alerts = coalesce($2::boolean, email_alerts)
WHERE
  id = $3
  AND account_id = $4
RETURNING
  id,
  account_id,
  name,
  query,
  email_alerts,
  created_at
