-- Written by `npm run sql` from libs/messaging/src/messages.repository.ts: do not edit.

-- MessagesRepository.deleteSome
DELETE FROM messages
WHERE
  id IN (
    SELECT
      id
    FROM
      messages
    WHERE
      account_id = $1
    LIMIT
      $2
  )

-- MessagesRepository.exported
SELECT
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error
FROM
  messages
WHERE
  account_id = $1
  AND seq < $2::bigint
ORDER BY
  seq DESC
LIMIT
  $3

-- MessagesRepository.findOne
SELECT
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error
FROM
  messages
WHERE
  id = $1
  AND account_id = $2

-- MessagesRepository.findSending
SELECT
  id
FROM
  messages
WHERE
  status = 'sending'
  AND sending_at < now() - $1 * interval '1 millisecond'
ORDER BY
  sending_at
LIMIT
  $2

-- MessagesRepository.findUnenqueued
SELECT
  id
FROM
  messages
WHERE
  status = 'queued'
  AND enqueued_at IS NULL
  AND created_at < now() - $1 * interval '1 millisecond'
ORDER BY
  created_at
LIMIT
  $2

-- MessagesRepository.insert
WITH
  seqs_in_commit_order AS (
    SELECT
      pg_advisory_xact_lock($1)
  )
INSERT INTO
  messages (id, account_id, message)
SELECT
  t.*
FROM
  seqs_in_commit_order,
  unnest($2::text[], $3::bigint[], $4::text[]) AS t
RETURNING
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error

-- MessagesRepository.list (first page)
SELECT
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error
FROM
  messages
WHERE
  account_id = $1
ORDER BY
  seq DESC
LIMIT
  $2

-- MessagesRepository.list (with a status)
SELECT
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error
FROM
  messages
WHERE
  account_id = $1
  AND status = $2
ORDER BY
  seq DESC
LIMIT
  $3

-- MessagesRepository.list (next page)
SELECT
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error
FROM
  messages
WHERE
  account_id = $1
  AND seq < $2
ORDER BY
  seq DESC
LIMIT
  $3

-- MessagesRepository.list (next page with a status)
SELECT
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error
FROM
  messages
WHERE
  account_id = $1
  AND status = $2
  AND seq < $3
ORDER BY
  seq DESC
LIMIT
  $4

-- MessagesRepository.markFailed
WITH
  locked AS MATERIALIZED (
    SELECT
      id
    FROM
      "messages"
    WHERE
      id = ANY ($1)
      AND (status = ANY ($2))
    ORDER BY
      id
    FOR NO KEY UPDATE
  )
UPDATE messages
SET
  status = 'failed',
  failed_at = now(),
  last_error = $3
WHERE
  id IN (
    SELECT
      id
    FROM
      locked
  )
RETURNING
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error,
  account_id

-- MessagesRepository.markSent
WITH
  locked AS MATERIALIZED (
    SELECT
      id
    FROM
      "messages"
    WHERE
      id = ANY ($1)
      AND (status = ANY ($2))
    ORDER BY
      id
    FOR NO KEY UPDATE
  )
UPDATE messages
SET
  status = 'sent',
  sent_at = now()
WHERE
  id IN (
    SELECT
      id
    FROM
      locked
  )
RETURNING
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error,
  account_id

-- MessagesRepository.recordEnqueued
WITH
  locked AS MATERIALIZED (
    SELECT
      id
    FROM
      "messages"
    WHERE
      id = ANY ($1)
      AND (enqueued_at IS NULL)
    ORDER BY
      id
    FOR NO KEY UPDATE
  )
UPDATE messages
SET
  enqueued_at = now()
WHERE
  id IN (
    SELECT
      id
    FROM
      locked
  )

-- MessagesRepository.recordError
WITH
  locked AS MATERIALIZED (
    SELECT
      id
    FROM
      "messages"
    WHERE
      id = ANY ($1)
      AND (status = ANY ($2))
    ORDER BY
      id
    FOR NO KEY UPDATE
  )
UPDATE messages
SET
  last_error = $3
WHERE
  id IN (
    SELECT
      id
    FROM
      locked
  )
RETURNING
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error,
  account_id

-- MessagesRepository.startSending
WITH
  locked AS MATERIALIZED (
    SELECT
      id
    FROM
      "messages"
    WHERE
      id = ANY ($1)
      AND (status = ANY ($2))
    ORDER BY
      id
    FOR NO KEY UPDATE
  )
UPDATE messages
SET
  status = 'sending',
  sending_at = now(),
  attempts = attempts + 1
WHERE
  id IN (
    SELECT
      id
    FROM
      locked
  )
RETURNING
  id,
  seq,
  message,
  status,
  created_at,
  attempts,
  sent_at,
  last_error,
  account_id
