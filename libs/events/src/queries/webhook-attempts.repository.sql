-- Written by `npm run sql` from libs/events/src/delivery/webhook-attempts.repository.ts: do not edit.

-- WebhookAttemptsRepository.findStale
SELECT
  id,
  event_id,
  endpoint_id,
  CASE
    WHEN manual THEN attempt
  END AS manual_attempt
FROM
  webhook_attempts
WHERE
  status = 'pending'
  AND id > $1
  AND created_at < now() - $2 * interval '1 millisecond'
ORDER BY
  id
LIMIT
  $3

-- WebhookAttemptsRepository.listAttempts
SELECT
  id,
  event_id,
  event_type,
  attempt,
  status,
  manual,
  response_status,
  duration_ms,
  error,
  created_at
FROM
  webhook_attempts
WHERE
  endpoint_id = $1
  AND id < $2
ORDER BY
  id DESC
LIMIT
  $3

-- WebhookAttemptsRepository.openFirstAttempts
INSERT INTO
  webhook_attempts (event_id, endpoint_id, event_type, attempt)
SELECT
  *,
  1
FROM
  unnest($1::text[], $2::bigint[], $3::text[])
ON CONFLICT DO NOTHING
RETURNING
  id,
  event_id,
  endpoint_id

-- WebhookAttemptsRepository.openManualAttempt
INSERT INTO
  webhook_attempts (
    event_id,
    endpoint_id,
    event_type,
    attempt,
    manual
  )
SELECT
  e.id,
  $1,
  e.type,
  coalesce(last.attempt, 0) + 1,
  true
FROM
  events e,
  LATERAL (
    SELECT
      max(a.attempt) AS attempt,
      bool_or(a.status = 'pending') AS pending
    FROM
      webhook_attempts a
    WHERE
      a.event_id = e.id
      AND a.endpoint_id = $2
  ) last
WHERE
  e.id = $3
  AND e.dispatched_at IS NOT NULL
  AND last.pending IS NOT TRUE
ON CONFLICT DO NOTHING
RETURNING
  id,
  event_id,
  event_type,
  attempt,
  status,
  manual,
  response_status,
  duration_ms,
  error,
  created_at

-- WebhookAttemptsRepository.pendingAttempt
SELECT
  a.id AS attempt_id,
  a.attempt,
  a.manual,
  k.endpoint_id,
  w.url,
  w.secret_ciphertext,
  w.previous_secret_ciphertext,
  w.previous_secret_expires_at,
  w.enabled,
  e.id,
  e.type,
  e.object,
  e.created_at
FROM
  (
    SELECT DISTINCT
      *
    FROM
      unnest($1::text[], $2::bigint[]) AS k (event_id, endpoint_id)
  ) k
  JOIN LATERAL (
    SELECT
      a.id,
      a.attempt,
      a.manual
    FROM
      webhook_attempts a
    WHERE
      a.event_id = k.event_id
      AND a.endpoint_id = k.endpoint_id
      AND a.status = 'pending'
    ORDER BY
      a.attempt DESC
    LIMIT
      1
  ) a ON true
  JOIN webhook_endpoints w ON w.id = k.endpoint_id
  JOIN events e ON e.id = k.event_id

-- WebhookAttemptsRepository.recordOutcome
SELECT
  id
FROM
  webhook_endpoints
WHERE
  id = ANY ($1::bigint[])
ORDER BY
  id
FOR KEY SHARE

WITH
  locked AS MATERIALIZED (
    SELECT
      a.id,
      o.status,
      o.response_status,
      o.duration_ms,
      o.error,
      o.retried
    FROM
      (
        SELECT
          *
        FROM
          unnest(
            $1::bigint[],
            $2::text[],
            $3::int[],
            $4::int[],
            $5::text[],
            $6::boolean[]
          ) AS o (
            id,
            status,
            response_status,
            duration_ms,
            error,
            retried
          )
        ORDER BY
          1
      ) o,
      LATERAL (
        SELECT
          a.id
        FROM
          webhook_attempts a
        WHERE
          a.id = o.id
          AND a.status = 'pending'
        FOR NO KEY UPDATE OF
          a
      ) a
  ),
  settled AS (
    UPDATE webhook_attempts a
    SET
      status = locked.status,
      response_status = locked.response_status,
      duration_ms = locked.duration_ms,
      error = locked.error
    FROM
      locked
    WHERE
      a.id = locked.id
    RETURNING
      a.endpoint_id,
      a.event_id,
      a.event_type,
      a.attempt,
      locked.retried
  )
INSERT INTO
  webhook_attempts (endpoint_id, event_id, event_type, attempt)
SELECT
  endpoint_id,
  event_id,
  event_type,
  attempt + 1
FROM
  settled
WHERE
  retried
ON CONFLICT DO NOTHING
