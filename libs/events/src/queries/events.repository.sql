-- Written by `npm run sql` from libs/events/src/events.repository.ts: do not edit.

-- EventsRepository.claimUndispatched
WITH
  claimed AS (
    SELECT
      id
    FROM
      events
    WHERE
      dispatched_at IS NULL
    ORDER BY
      seq
    LIMIT
      $1
    FOR UPDATE
      SKIP LOCKED
  )
UPDATE events e
SET
  dispatched_at = now()
FROM
  claimed
WHERE
  e.id = claimed.id
RETURNING
  e.account_id,
  e.id,
  e.seq,
  e.type,
  e.object,
  e.created_at

-- EventsRepository.deleteOlderThan
DELETE FROM events
WHERE
  id IN (
    SELECT
      e.id
    FROM
      events e
    WHERE
      e.created_at < now() - $1 * interval '1 day'
      AND NOT EXISTS (
        SELECT
        FROM
          webhook_attempts a
        WHERE
          a.event_id = e.id
          AND (
            a.created_at >= now() - $2 * interval '1 day'
            OR a.status = 'pending'
          )
      )
    ORDER BY
      e.created_at
    LIMIT
      $3
  )

-- EventsRepository.findOne
SELECT
  id,
  seq,
  type,
  object,
  created_at
FROM
  events
WHERE
  id = $1
  AND account_id = $2

-- EventsRepository.insert
INSERT INTO
  events (id, account_id, type, object, created_at)
SELECT
  id,
  account_id,
  type,
  object::jsonb,
  coalesce(created_at, now())
FROM
  unnest(
    $1::text[],
    $2::bigint[],
    $3::text[],
    $4::text[],
    $5::timestamptz[]
  ) AS t (id, account_id, type, object, created_at)

-- EventsRepository.insertDispatched
INSERT INTO
  events (id, account_id, type, object, dispatched_at)
VALUES
  ($1, $2, $3, $4, now())
RETURNING
  id,
  seq,
  type,
  object,
  created_at

-- EventsRepository.insertSharing
INSERT INTO
  events (id, account_id, type, object, dispatched_at)
SELECT
  e.id,
  e.account_id,
  $1,
  s.object || e.own::jsonb,
  CASE
    WHEN e.account_id IN (
      SELECT
        w.account_id
      FROM
        webhook_endpoints w
      WHERE
        w.account_id = ANY ($2::bigint[])
        AND w.enabled
        AND (
          $3::text <> $4
          AND w.event_types && ARRAY[$5, $6::text]
        )
    ) THEN NULL
    ELSE now()
  END
FROM
  unnest($7::text[], $8::bigint[], $9::int[], $10::text[]) WITH ORDINALITY AS e (id, account_id, shared, own, n)
  JOIN unnest($11::jsonb[]) WITH ORDINALITY AS s (object, n) ON s.n = e.shared
ORDER BY
  e.n

-- EventsRepository.list (first page)
SELECT
  id,
  seq,
  type,
  object,
  created_at
FROM
  events
WHERE
  account_id = $1
ORDER BY
  seq DESC
LIMIT
  $2

-- EventsRepository.list (of a type)
SELECT
  id,
  seq,
  type,
  object,
  created_at
FROM
  events
WHERE
  account_id = $1
  AND type = $2
ORDER BY
  seq DESC
LIMIT
  $3

-- EventsRepository.list (next page)
SELECT
  id,
  seq,
  type,
  object,
  created_at
FROM
  events
WHERE
  account_id = $1
  AND seq < $2
ORDER BY
  seq DESC
LIMIT
  $3

-- EventsRepository.list (next page of a type)
SELECT
  id,
  seq,
  type,
  object,
  created_at
FROM
  events
WHERE
  account_id = $1
  AND type = $2
  AND seq < $3
ORDER BY
  seq DESC
LIMIT
  $4
