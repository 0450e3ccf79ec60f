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

-- EventsRepository.deleteAlertsOlderThan
DELETE FROM saved_search_alerts
WHERE
  ctid = ANY (
    ARRAY(
      SELECT
        ctid
      FROM
        saved_search_alerts
      WHERE
        created_at < now() - $1 * interval '1 day'
      ORDER BY
        created_at
      LIMIT
        $2
    )
  )

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
      AND coalesce(e.matched_at, e.created_at) < now() - $2 * interval '1 day'
      AND NOT EXISTS (
        SELECT
        FROM
          webhook_attempts a
        WHERE
          a.event_id = e.id
          AND (
            a.created_at >= now() - $3 * interval '1 day'
            OR a.status = 'pending'
          )
      )
    ORDER BY
      e.created_at
    LIMIT
      $4
  )

-- EventsRepository.deleteSomeOf
DELETE FROM events
WHERE
  id IN (
    SELECT
      id
    FROM
      events
    WHERE
      account_id = $1
      AND type NOT IN ('pet.created', 'pet.updated', 'pet.deleted')
    LIMIT
      $2
  )

DELETE FROM saved_search_alerts
WHERE
  ctid = ANY (
    ARRAY(
      SELECT
        ctid
      FROM
        saved_search_alerts
      WHERE
        account_id = $1
      LIMIT
        $2
    )
  )

-- EventsRepository.exported
SELECT
  id,
  seq,
  type,
  object,
  created_at
FROM
  (
    (
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
        AND seq < $2::bigint
        AND created_at >= now() - $3 * interval '1 day'
      ORDER BY
        seq DESC
      LIMIT
        $4
    )
    UNION ALL
    (
      SELECT
        'evt_alert' || lpad(a.seq::text, 19, '0') AS id,
        a.seq,
        'saved_search.matched'::text AS type,
        jsonb_build_object(
          'pet',
          change.object,
          'savedSearchId',
          a.saved_search_id
        ) AS object,
        a.created_at
      FROM
        saved_search_alerts a
        JOIN events change ON change.id = a.change_id
      WHERE
        a.account_id = $5
        AND a.seq < $6::bigint
        AND a.created_at >= now() - $7 * interval '1 day'
      ORDER BY
        a.seq DESC
      LIMIT
        $8
    )
  ) AS e
ORDER BY
  seq DESC
LIMIT
  $9

-- EventsRepository.findOne (an event)
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

-- EventsRepository.findOne (an alert)
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
UNION ALL
SELECT
  'evt_alert' || lpad(a.seq::text, 19, '0') AS id,
  a.seq,
  'saved_search.matched'::text AS type,
  jsonb_build_object(
    'pet',
    change.object,
    'savedSearchId',
    a.saved_search_id
  ) AS object,
  a.created_at
FROM
  saved_search_alerts a
  JOIN events change ON change.id = a.change_id
WHERE
  a.account_id = $3
  AND a.seq = $4

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
        w.account_id IN (
          SELECT
            unnest($2::bigint[])
        )
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
  (
    (
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
    )
    UNION ALL
    (
      SELECT
        'evt_alert' || lpad(a.seq::text, 19, '0') AS id,
        a.seq,
        'saved_search.matched'::text AS type,
        jsonb_build_object(
          'pet',
          change.object,
          'savedSearchId',
          a.saved_search_id
        ) AS object,
        a.created_at
      FROM
        saved_search_alerts a
        JOIN events change ON change.id = a.change_id
      WHERE
        a.account_id = $3
      ORDER BY
        a.seq DESC
      LIMIT
        $4
    )
  ) AS e
ORDER BY
  seq DESC
LIMIT
  $5

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

-- EventsRepository.list (alerts)
SELECT
  id,
  seq,
  type,
  object,
  created_at
FROM
  (
    (
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
    )
    UNION ALL
    (
      SELECT
        'evt_alert' || lpad(a.seq::text, 19, '0') AS id,
        a.seq,
        'saved_search.matched'::text AS type,
        jsonb_build_object(
          'pet',
          change.object,
          'savedSearchId',
          a.saved_search_id
        ) AS object,
        a.created_at
      FROM
        saved_search_alerts a
        JOIN events change ON change.id = a.change_id
      WHERE
        a.account_id = $4
      ORDER BY
        a.seq DESC
      LIMIT
        $5
    )
  ) AS e
ORDER BY
  seq DESC
LIMIT
  $6

-- EventsRepository.list (next page)
SELECT
  id,
  seq,
  type,
  object,
  created_at
FROM
  (
    (
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
    )
    UNION ALL
    (
      SELECT
        'evt_alert' || lpad(a.seq::text, 19, '0') AS id,
        a.seq,
        'saved_search.matched'::text AS type,
        jsonb_build_object(
          'pet',
          change.object,
          'savedSearchId',
          a.saved_search_id
        ) AS object,
        a.created_at
      FROM
        saved_search_alerts a
        JOIN events change ON change.id = a.change_id
      WHERE
        a.account_id = $4
        AND a.seq < $5
      ORDER BY
        a.seq DESC
      LIMIT
        $6
    )
  ) AS e
ORDER BY
  seq DESC
LIMIT
  $7

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
  AND seq < $2
  AND type = $3
ORDER BY
  seq DESC
LIMIT
  $4

-- EventsRepository.materialiseAlert
WITH
  moved AS (
    DELETE FROM saved_search_alerts a USING events change
    WHERE
      a.account_id = $1
      AND a.seq = $2
      AND change.id = a.change_id
    RETURNING
      'evt_alert' || lpad(a.seq::text, 19, '0') AS id,
      a.seq,
      'saved_search.matched'::text AS type,
      jsonb_build_object(
        'pet',
        change.object,
        'savedSearchId',
        a.saved_search_id
      ) AS object,
      a.created_at,
      a.account_id
  )
INSERT INTO
  events (
    id,
    seq,
    account_id,
    type,
    object,
    created_at,
    dispatched_at
  )
SELECT
  id,
  seq,
  account_id,
  type,
  object,
  created_at,
  now()
FROM
  moved
