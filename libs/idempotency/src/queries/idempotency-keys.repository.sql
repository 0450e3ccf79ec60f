-- Written by `npm run sql` from libs/idempotency/src/idempotency-keys.repository.ts: do not edit.

-- IdempotencyKeysRepository.deleteExpired
DELETE FROM idempotency_keys
WHERE
  (account_id, key) IN (
    SELECT
      account_id,
      key
    FROM
      idempotency_keys
    WHERE
      created_at < now() - interval '24 hours'
    LIMIT
      $1
    FOR UPDATE
      SKIP LOCKED
  )

-- IdempotencyKeysRepository.deleteSome
DELETE FROM idempotency_keys
WHERE
  (account_id, key) IN (
    SELECT
      account_id,
      key
    FROM
      idempotency_keys
    WHERE
      account_id = $1
    LIMIT
      $2
  )

-- IdempotencyKeysRepository.exported
SELECT
  key,
  response_status AS "responseStatus",
  response_location AS "responseLocation",
  to_char(
    created_at AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
  ) AS "createdAt"
FROM
  idempotency_keys
WHERE
  account_id = $1
  AND key > $2
ORDER BY
  key
LIMIT
  $3

-- IdempotencyKeysRepository.record
UPDATE idempotency_keys
SET
  response_status = $1,
  response_body = $2,
  response_location = $3,
  response_etag = $4,
  locked_until = NULL
WHERE
  account_id = $5
  AND key = $6

-- IdempotencyKeysRepository.release
DELETE FROM idempotency_keys
WHERE
  account_id = $1
  AND key = $2
  AND response_status IS NULL

-- IdempotencyKeysRepository.reserve
WITH
  expired AS (
    DELETE FROM idempotency_keys
    WHERE
      account_id = $1
      AND key = $2
      AND created_at < now() - interval '24 hours'
  )
INSERT INTO
  idempotency_keys AS k (account_id, key, fingerprint, locked_until)
VALUES
  ($3, $4, $5, now() + interval '60 seconds')
ON CONFLICT (account_id, key) DO UPDATE
SET
  locked_until = EXCLUDED.locked_until
WHERE
  k.response_status IS NULL
  AND k.locked_until < now()
  AND k.fingerprint = EXCLUDED.fingerprint
RETURNING
  true AS taken

SELECT
  fingerprint,
  response_status,
  response_body,
  response_location,
  response_etag
FROM
  idempotency_keys
WHERE
  account_id = $1
  AND key = $2
