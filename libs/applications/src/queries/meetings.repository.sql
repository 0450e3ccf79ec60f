-- Written by `npm run sql` from libs/applications/src/meetings/meetings.repository.ts: do not edit.

-- MeetingsRepository.cancelLiveOf
WITH
  m AS (
    UPDATE meetings
    SET
      status = 'cancelled',
      updated_at = now()
    WHERE
      application_id = ANY ($1::text[])
      AND status = ANY ($2::text[])
    RETURNING
      id,
      application_id,
      starts_at,
      ends_at,
      location,
      status,
      created_at,
      updated_at
  )
SELECT
  m.id,
  m.application_id,
  a.applicant_account_id,
  a.lister_account_id,
  m.starts_at,
  m.ends_at,
  m.location,
  m.status,
  m.created_at,
  m.updated_at
FROM
  m
  JOIN applications a ON a.id = m.application_id

-- MeetingsRepository.claimDueReminders
WITH
  m AS (
    UPDATE meetings
    SET
      reminded_at = now()
    WHERE
      id IN (
        SELECT
          id
        FROM
          meetings
        WHERE
          status = 'accepted'
          AND reminded_at IS NULL
          AND starts_at <= now() + make_interval(hours => $1)
        ORDER BY
          starts_at
        LIMIT
          $2
        FOR UPDATE
          SKIP LOCKED
      )
    RETURNING
      id,
      application_id,
      starts_at,
      ends_at,
      location,
      status,
      created_at,
      updated_at
  )
SELECT
  m.id,
  m.application_id,
  a.applicant_account_id,
  a.lister_account_id,
  m.starts_at,
  m.ends_at,
  m.location,
  m.status,
  m.created_at,
  m.updated_at
FROM
  m
  JOIN applications a ON a.id = m.application_id

-- MeetingsRepository.countLive
SELECT
  count(*)::int AS count
FROM
  meetings
WHERE
  application_id = $1
  AND status = ANY ($2::text[])

-- MeetingsRepository.exported
SELECT
  m.id,
  m.application_id,
  a.applicant_account_id,
  a.lister_account_id,
  m.starts_at,
  m.ends_at,
  m.location,
  m.status,
  m.created_at,
  m.updated_at
FROM
  meetings m
  JOIN applications a ON a.id = m.application_id
WHERE
  m.application_id = $1
  AND (m.created_at, m.id) > ($2, $3)
ORDER BY
  m.created_at,
  m.id
LIMIT
  $4

-- MeetingsRepository.find
SELECT
  m.id,
  m.application_id,
  a.applicant_account_id,
  a.lister_account_id,
  m.starts_at,
  m.ends_at,
  m.location,
  m.status,
  m.created_at,
  m.updated_at
FROM
  meetings m
  JOIN applications a ON a.id = m.application_id
WHERE
  m.id = $1
  AND m.application_id = $2

-- MeetingsRepository.insert
WITH
  m AS (
    INSERT INTO
      meetings (id, application_id, starts_at, ends_at, location)
    VALUES
      ($1, $2, $3, $4, $5)
    RETURNING
      id,
      application_id,
      starts_at,
      ends_at,
      location,
      status,
      created_at,
      updated_at
  )
SELECT
  m.id,
  m.application_id,
  a.applicant_account_id,
  a.lister_account_id,
  m.starts_at,
  m.ends_at,
  m.location,
  m.status,
  m.created_at,
  m.updated_at
FROM
  m
  JOIN applications a ON a.id = m.application_id

-- MeetingsRepository.list
SELECT
  m.id,
  m.application_id,
  a.applicant_account_id,
  a.lister_account_id,
  m.starts_at,
  m.ends_at,
  m.location,
  m.status,
  m.created_at,
  m.updated_at
FROM
  meetings m
  JOIN applications a ON a.id = m.application_id
WHERE
  m.application_id = $1
ORDER BY
  m.starts_at,
  m.id
OFFSET
  $2
LIMIT
  $3

-- MeetingsRepository.lockApplication
SELECT
  status,
  applicant_account_id,
  lister_account_id
FROM
  applications
WHERE
  id = $1
FOR NO KEY UPDATE

-- MeetingsRepository.transition
WITH
  m AS (
    UPDATE meetings
    SET
      status = $1,
      updated_at = now()
    WHERE
      id = $2
      AND application_id = $3
      AND status = ANY ($4::text[])
      AND EXISTS (
        SELECT
          1
        FROM
          applications
        WHERE
          id = $5
          AND (
            (
              $6::text IS DISTINCT FROM 'lister'
              AND applicant_account_id = $7
            )
            OR (
              $8::text IS DISTINCT FROM 'applicant'
              AND lister_account_id = $9
            )
          )
      )
    RETURNING
      id,
      application_id,
      starts_at,
      ends_at,
      location,
      status,
      created_at,
      updated_at
  )
SELECT
  m.id,
  m.application_id,
  a.applicant_account_id,
  a.lister_account_id,
  m.starts_at,
  m.ends_at,
  m.location,
  m.status,
  m.created_at,
  m.updated_at
FROM
  m
  JOIN applications a ON a.id = m.application_id
