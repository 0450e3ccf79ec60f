-- Written by `npm run sql` from libs/email/src/email.repository.ts: do not edit.

-- EmailRepository.askAgain
WITH
  asked AS (
    SELECT
      *
    FROM
      unnest($1::text[], $2::text[]) AS a (address_key, list)
  ),
  lifted AS (
    DELETE FROM email_suppressions
    WHERE
      address_key IN (
        SELECT
          address_key
        FROM
          asked
      )
  )
DELETE FROM email_unsubscribes u USING asked
WHERE
  u.address_key = asked.address_key
  AND u.list = asked.list

-- EmailRepository.claimDue
WITH
  due AS (
    SELECT
      n.id,
      CASE
        WHEN EXISTS (
          SELECT
          FROM
            email_suppressions s
          WHERE
            s.address_key = n.address_key
        ) THEN 'suppressed'
        WHEN EXISTS (
          SELECT
          FROM
            email_unsubscribes u
          WHERE
            u.address_key = n.address_key
            AND u.list = n.list
        ) THEN 'unsubscribed'
      END AS stopped
    FROM
      email_notifications n
    WHERE
      n.status = 'pending'
      AND n.next_attempt_at <= now()
    ORDER BY
      n.next_attempt_at
    LIMIT
      $1
    FOR UPDATE OF
      n SKIP LOCKED
  )
UPDATE email_notifications n
SET
  status = coalesce(due.stopped, 'pending'),
  attempts = n.attempts + (due.stopped IS NULL)::int,
  next_attempt_at = now() + $2 * interval '1 millisecond',
  finished_at = CASE
    WHEN due.stopped IS NULL THEN NULL
    ELSE now()
  END
FROM
  due
WHERE
  n.id = due.id
RETURNING
  n.id,
  n.address,
  n.address_key,
  n.list,
  n.template,
  n.data,
  n.account_id,
  n.status,
  n.attempts,
  n.last_error,
  n.created_at,
  n.finished_at,
  due.stopped

-- EmailRepository.deleteOfAccount
DELETE FROM email_notifications
WHERE
  id IN (
    SELECT
      id
    FROM
      email_notifications
    WHERE
      account_id = $1
    LIMIT
      $2
  )

-- EmailRepository.history
SELECT
  id,
  address,
  address_key,
  list,
  template,
  data,
  account_id,
  status,
  attempts,
  last_error,
  created_at,
  finished_at
FROM
  email_notifications
WHERE
  address_key = $1
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $2

-- EmailRepository.insert
INSERT INTO
  email_notifications (
    id,
    address,
    address_key,
    list,
    template,
    data,
    account_id
  )
SELECT
  *
FROM
  unnest(
    $1::text[],
    $2::text[],
    $3::text[],
    $4::text[],
    $5::text[],
    $6::jsonb[],
    $7::bigint[]
  )

-- EmailRepository.markBounced
WITH
  bounced AS (
    UPDATE email_notifications
    SET
      status = 'bounced',
      last_error = $1,
      finished_at = now()
    WHERE
      id = $2
      AND status = 'pending'
    RETURNING
      address_key
  )
INSERT INTO
  email_suppressions (address_key, reason)
SELECT
  address_key,
  $3
FROM
  bounced
ON CONFLICT (address_key) DO NOTHING

-- EmailRepository.markRetry
UPDATE email_notifications
SET
  status = CASE
    WHEN now() >= created_at + interval '24 hours' THEN 'failed'
    ELSE 'pending'
  END,
  finished_at = CASE
    WHEN now() >= created_at + interval '24 hours' THEN now()
  END,
  next_attempt_at = least(
    now() + $1 * power(2, least(attempts - 1, 30)) * interval '1 millisecond',
    created_at + interval '24 hours'
  ),
  last_error = $2
WHERE
  id = $3
  AND status = 'pending'

-- EmailRepository.markSent
UPDATE email_notifications
SET
  status = 'sent',
  last_error = NULL,
  finished_at = now()
WHERE
  id = $1
  AND status = 'pending'

-- EmailRepository.ofAccount
SELECT
  id,
  address,
  address_key,
  list,
  template,
  data,
  account_id,
  status,
  attempts,
  last_error,
  created_at,
  finished_at
FROM
  email_notifications
WHERE
  account_id = $1
  AND (created_at, id) > ($2, $3)
ORDER BY
  created_at,
  id
LIMIT
  $4

-- EmailRepository.stops
SELECT
  (
    SELECT
      json_build_object('reason', reason, 'created_at', created_at)
    FROM
      email_suppressions
    WHERE
      address_key = $1
  ) AS suppression,
  coalesce(
    (
      SELECT
        json_agg(
          json_build_object('list', list, 'created_at', created_at)
          ORDER BY
            created_at
        )
      FROM
        email_unsubscribes
      WHERE
        address_key = $2
    ),
    '[]'
  ) AS unsubscribes

-- EmailRepository.unsubscribe
INSERT INTO
  email_unsubscribes (address_key, list)
VALUES
  ($1, $2)
ON CONFLICT (address_key, list) DO NOTHING
