-- Written by `npm run sql` from libs/photos/src/photos.repository.ts: do not edit.

-- PhotosRepository.find
SELECT
  id,
  pet_id,
  status,
  position,
  width,
  height,
  urls,
  error,
  created_at,
  updated_at
FROM
  photos
WHERE
  id = $1
  AND pet_id = $2

-- PhotosRepository.findById
SELECT
  id,
  pet_id,
  status,
  position,
  width,
  height,
  urls,
  error,
  created_at,
  updated_at
FROM
  photos
WHERE
  id = $1

-- PhotosRepository.findPet
SELECT
  lister_account_id,
  (
    SELECT
      count(*)::int
    FROM
      photos
    WHERE
      pet_id = pets.id
  ) AS photo_count
FROM
  pets
WHERE
  id = $1

-- PhotosRepository.findProcessing
SELECT
  id,
  pet_id
FROM
  photos
WHERE
  status = 'processing'
  AND updated_at < now() - make_interval(secs => $1)
ORDER BY
  updated_at
LIMIT
  $2

-- PhotosRepository.insert
SELECT
  pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::int)

INSERT INTO
  photos (id, pet_id, position, files)
SELECT
  $1,
  $2,
  count(*),
  ARRAY[$3::text]
FROM
  photos
WHERE
  pet_id = $4
HAVING
  count(*) < $5
RETURNING
  id,
  pet_id,
  status,
  position,
  width,
  height,
  urls,
  error,
  created_at,
  updated_at

-- PhotosRepository.list (every photo)
SELECT
  id,
  pet_id,
  status,
  position,
  width,
  height,
  urls,
  error,
  created_at,
  updated_at
FROM
  photos
WHERE
  pet_id = $1
ORDER BY
  position

-- PhotosRepository.list (ready ones)
SELECT
  id,
  pet_id,
  status,
  position,
  width,
  height,
  urls,
  error,
  created_at,
  updated_at
FROM
  photos
WHERE
  pet_id = $1
  AND status = 'ready'
ORDER BY
  position

-- PhotosRepository.markFailed
WITH
  before AS (
    SELECT
      id,
      files
    FROM
      photos
    WHERE
      id = $1
      AND status = 'processing'
    FOR UPDATE
  ),
  settled AS (
    UPDATE photos
    SET
      status = 'failed',
      error = $2,
      files = '{}',
      updated_at = now()
    FROM
      before
    WHERE
      photos.id = before.id
    RETURNING
      before.files
  ),
  listed AS (
    INSERT INTO
      photo_file_removals (key, photo_id)
    SELECT
      unnest(files),
      $3
    FROM
      settled
    ON CONFLICT (key) DO UPDATE
    SET
      due_at = now()
  )
SELECT
  true AS settled
FROM
  settled

-- PhotosRepository.markPending
INSERT INTO
  photo_file_removals (key, photo_id, due_at)
SELECT
  unnest($1::text[]),
  $2,
  now() + make_interval(secs => $3)
ON CONFLICT (key) DO UPDATE
SET
  due_at = EXCLUDED.due_at

-- PhotosRepository.markReady
SELECT
  pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::int)

WITH
  pet_change AS (
    UPDATE pet_change_clock
    SET
      changed_at = greatest(
        clock_timestamp(),
        changed_at + interval '1 microsecond'
      )
    RETURNING
      changed_at
  )
SELECT
  pets.id
FROM
  pets,
  pet_change
WHERE
  pets.id = $1
FOR NO KEY UPDATE OF
  pets

WITH
  before AS (
    SELECT
      id,
      files
    FROM
      photos
    WHERE
      id = $1
      AND status = 'processing'
    FOR UPDATE
  ),
  settled AS (
    UPDATE photos
    SET
      status = 'ready',
      width = $2,
      height = $3,
      urls = $4::jsonb,
      files = $5::text[],
      updated_at = now()
    FROM
      before
    WHERE
      photos.id = before.id
    RETURNING
      before.files
  ),
  listed AS (
    INSERT INTO
      photo_file_removals (key, photo_id)
    SELECT
      unnest(files),
      $6
    FROM
      settled
    ON CONFLICT (key) DO UPDATE
    SET
      due_at = now()
  )
SELECT
  true AS settled
FROM
  settled

-- PhotosRepository.markRenditionsPending
INSERT INTO
  photo_file_removals (key, photo_id, due_at)
SELECT
  unnest($1::text[]),
  $2,
  now() + make_interval(secs => $3)
WHERE
  EXISTS (
    SELECT
      1
    FROM
      photos
    WHERE
      id = $4
      AND status = 'processing'
  )
ON CONFLICT (key) DO UPDATE
SET
  due_at = EXCLUDED.due_at
RETURNING
  key

-- PhotosRepository.move
SELECT
  pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::int)

WITH
  pet_change AS (
    UPDATE pet_change_clock
    SET
      changed_at = greatest(
        clock_timestamp(),
        changed_at + interval '1 microsecond'
      )
    RETURNING
      changed_at
  )
SELECT
  pets.id
FROM
  pets,
  pet_change
WHERE
  pets.id = $1
FOR NO KEY UPDATE OF
  pets

WITH
  target AS (
    SELECT
      p.position AS from_position,
      least(
        $1::int,
        (
          SELECT
            count(*) - 1
          FROM
            photos
          WHERE
            pet_id = $2
        )
      )::int AS to_position
    FROM
      photos p
    WHERE
      p.id = $3
      AND p.pet_id = $4
  )
UPDATE photos p
SET
  position = CASE
    WHEN p.id = $5 THEN t.to_position
    WHEN t.to_position < t.from_position THEN p.position + 1
    ELSE p.position - 1
  END,
  updated_at = CASE
    WHEN p.id = $6 THEN now()
    ELSE p.updated_at
  END
FROM
  target t
WHERE
  p.pet_id = $7
  AND p.position BETWEEN least(t.from_position, t.to_position) AND greatest(t.from_position, t.to_position)
RETURNING
  id,
  pet_id,
  status,
  position,
  width,
  height,
  urls,
  error,
  created_at,
  updated_at

-- PhotosRepository.remove
SELECT
  pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::int)

WITH
  pet_change AS (
    UPDATE pet_change_clock
    SET
      changed_at = greatest(
        clock_timestamp(),
        changed_at + interval '1 microsecond'
      )
    RETURNING
      changed_at
  )
SELECT
  pets.id
FROM
  pets,
  pet_change
WHERE
  pets.id = $1
FOR NO KEY UPDATE OF
  pets

DELETE FROM photos
WHERE
  id = $1
  AND pet_id = $2
RETURNING
  position,
  status

-- PhotosRepository.removeDueFiles
DELETE FROM photo_file_removals removal
WHERE
  key IN (
    SELECT
      key
    FROM
      photo_file_removals
    WHERE
      due_at <= now()
    ORDER BY
      due_at
    LIMIT
      $1
    FOR UPDATE
      SKIP LOCKED
  )
RETURNING
  key,
  EXISTS (
    SELECT
      1
    FROM
      photos
    WHERE
      id = removal.photo_id
      AND removal.key = ANY (files)
  ) AS needed

-- PhotosRepository.removeSoon
UPDATE photo_file_removals
SET
  due_at = now()
WHERE
  key = ANY ($1::text[])
