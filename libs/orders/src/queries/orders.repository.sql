-- Written by `npm run sql` from libs/orders/src/orders.repository.ts: do not edit.

-- OrdersRepository.cancelOpenOf
UPDATE orders
SET
  status = 'cancelled',
  cancellation_reason = 'account_deleted',
  updated_at = now(),
  expires_at = NULL
WHERE
  id IN (
    SELECT
      id
    FROM
      orders
    WHERE
      (
        adopter_account_id = $1
        OR lister_account_id = $2
      )
      AND status IN ('placed', 'approved')
    ORDER BY
      id
    LIMIT
      $3
    FOR UPDATE
  )
  AND status IN ('placed', 'approved')
RETURNING
  id,
  pet_id,
  adopter_account_id,
  lister_account_id,
  status,
  note,
  cancellation_reason,
  expires_at,
  created_at,
  updated_at

-- OrdersRepository.deleteUnheld
DELETE FROM orders
WHERE
  id = ANY ($1::bigint[])

-- OrdersRepository.eraseWordsOf
UPDATE orders
SET
  note = CASE
    WHEN adopter_account_id = $1 THEN NULL
    ELSE note
  END,
  return_reason = CASE
    WHEN lister_account_id = $2 THEN NULL
    ELSE return_reason
  END
WHERE
  id IN (
    SELECT
      id
    FROM
      orders
    WHERE
      (
        adopter_account_id = $3
        AND note IS NOT NULL
      )
      OR (
        lister_account_id = $4
        AND return_reason IS NOT NULL
      )
    LIMIT
      $5
  )

-- OrdersRepository.expire
UPDATE orders
SET
  status = 'cancelled',
  cancellation_reason = 'expired',
  updated_at = now(),
  expires_at = NULL
WHERE
  id = $1
  AND status = 'placed'
  AND expires_at <= now()
RETURNING
  id,
  pet_id,
  adopter_account_id,
  lister_account_id,
  status,
  note,
  cancellation_reason,
  expires_at,
  created_at,
  updated_at

-- OrdersRepository.exported
SELECT
  id,
  pet_id,
  adopter_account_id,
  lister_account_id,
  status,
  note,
  cancellation_reason,
  expires_at,
  created_at,
  updated_at
FROM
  orders
WHERE
  (
    adopter_account_id = $1
    OR lister_account_id = $2
  )
  AND id > $3
ORDER BY
  id
LIMIT
  $4

-- OrdersRepository.findById
SELECT
  id,
  pet_id,
  adopter_account_id,
  lister_account_id,
  status,
  note,
  cancellation_reason,
  expires_at,
  created_at,
  updated_at
FROM
  orders
WHERE
  id = $1

-- OrdersRepository.findExpired
SELECT
  id
FROM
  orders
WHERE
  status = 'placed'
  AND expires_at <= now()
ORDER BY
  expires_at
LIMIT
  $1

-- OrdersRepository.insertPlaced
WITH
  batch AS (
    SELECT
      pet_id,
      adopter_account_id,
      lister_account_id,
      note,
      uncapped,
      position
    FROM
      unnest(
        $1::bigint[],
        $2::bigint[],
        $3::bigint[],
        $4::text[],
        $5::boolean[]
      ) WITH ORDINALITY AS o (
        pet_id,
        adopter_account_id,
        lister_account_id,
        note,
        uncapped,
        position
      )
  ),
  placed AS (
    SELECT
      adopter_account_id,
      count(*) AS placed
    FROM
      orders
    WHERE
      adopter_account_id = ANY ($6::bigint[])
      AND status = 'placed'
      AND NOT placed_by_application
    GROUP BY
      adopter_account_id
  ),
  going AS (
    SELECT
      nextval('orders_id_seq') AS id,
      b.*
    FROM
      (
        SELECT
          batch.*,
          coalesce(placed.placed, 0) + count(*) FILTER (
            WHERE
              NOT batch.uncapped
          ) OVER (
            PARTITION BY
              batch.adopter_account_id
            ORDER BY
              batch.position
          ) AS nth
        FROM
          batch
          LEFT JOIN placed USING (adopter_account_id)
      ) b
    WHERE
      uncapped
      OR nth <= $7
  ),
  inserted AS (
    INSERT INTO
      orders (
        id,
        pet_id,
        adopter_account_id,
        lister_account_id,
        note,
        placed_by_application,
        expires_at
      )
    SELECT
      id,
      pet_id,
      adopter_account_id,
      lister_account_id,
      note,
      uncapped,
      now() + make_interval(secs => $8)
    FROM
      going
    RETURNING
      id,
      pet_id,
      adopter_account_id,
      lister_account_id,
      status,
      note,
      cancellation_reason,
      expires_at,
      created_at,
      updated_at
  )
SELECT
  inserted.*,
  going.position
FROM
  inserted
  JOIN going USING (id)

-- OrdersRepository.list (either side, first page)
SELECT
  id,
  pet_id,
  adopter_account_id,
  lister_account_id,
  status,
  note,
  cancellation_reason,
  expires_at,
  created_at,
  updated_at
FROM
  (
    (
      SELECT
        id,
        pet_id,
        adopter_account_id,
        lister_account_id,
        status,
        note,
        cancellation_reason,
        expires_at,
        created_at,
        updated_at
      FROM
        orders
      WHERE
        $1::text IS DISTINCT FROM $2
        AND adopter_account_id = $3
        AND id < $4
        AND (
          $5::text IS NULL
          OR status = $6
        )
        AND (
          $7::bigint IS NULL
          OR pet_id = $8
        )
      ORDER BY
        id DESC
      LIMIT
        $9
    )
    UNION ALL
    (
      SELECT
        id,
        pet_id,
        adopter_account_id,
        lister_account_id,
        status,
        note,
        cancellation_reason,
        expires_at,
        created_at,
        updated_at
      FROM
        orders
      WHERE
        $10::text IS DISTINCT FROM $11
        AND lister_account_id = $12
        AND id < $13
        AND (
          $14::text IS NULL
          OR status = $15
        )
        AND (
          $16::bigint IS NULL
          OR pet_id = $17
        )
      ORDER BY
        id DESC
      LIMIT
        $18
    )
  ) both_sides
ORDER BY
  id DESC
LIMIT
  $19

-- OrdersRepository.list (as lister, placed, of a pet, next page)
SELECT
  id,
  pet_id,
  adopter_account_id,
  lister_account_id,
  status,
  note,
  cancellation_reason,
  expires_at,
  created_at,
  updated_at
FROM
  (
    (
      SELECT
        id,
        pet_id,
        adopter_account_id,
        lister_account_id,
        status,
        note,
        cancellation_reason,
        expires_at,
        created_at,
        updated_at
      FROM
        orders
      WHERE
        $1::text IS DISTINCT FROM $2
        AND adopter_account_id = $3
        AND id < $4
        AND (
          $5::text IS NULL
          OR status = $6
        )
        AND (
          $7::bigint IS NULL
          OR pet_id = $8
        )
      ORDER BY
        id DESC
      LIMIT
        $9
    )
    UNION ALL
    (
      SELECT
        id,
        pet_id,
        adopter_account_id,
        lister_account_id,
        status,
        note,
        cancellation_reason,
        expires_at,
        created_at,
        updated_at
      FROM
        orders
      WHERE
        $10::text IS DISTINCT FROM $11
        AND lister_account_id = $12
        AND id < $13
        AND (
          $14::text IS NULL
          OR status = $15
        )
        AND (
          $16::bigint IS NULL
          OR pet_id = $17
        )
      ORDER BY
        id DESC
      LIMIT
        $18
    )
  ) both_sides
ORDER BY
  id DESC
LIMIT
  $19

-- OrdersRepository.lockPlacings
SELECT
  count(pg_advisory_xact_lock($1::int, key))
FROM
  (
    SELECT DISTINCT
      hashint8 (id) AS key
    FROM
      unnest($2::bigint[]) AS id
    ORDER BY
      key
  ) keys

-- OrdersRepository.transition
UPDATE orders
SET
  status = $1,
  updated_at = now(),
  expires_at = NULL,
  cancellation_reason = CASE
    WHEN $2 = 'cancelled' THEN $3
    ELSE cancellation_reason
  END,
  return_reason = CASE
    WHEN $4 = 'returned' THEN $5
    ELSE return_reason
  END
WHERE
  id = $6
  AND status = ANY ($7::text[])
  AND (
    (
      adopter_account_id = $8
      AND $9 = ANY ($10::text[])
    )
    OR (
      lister_account_id = $11
      AND $12 = ANY ($13::text[])
    )
  )
RETURNING
  id,
  pet_id,
  adopter_account_id,
  lister_account_id,
  status,
  note,
  cancellation_reason,
  expires_at,
  created_at,
  updated_at
