-- Written by `npm run sql` from libs/applications/src/applications.repository.ts: do not edit.

-- ApplicationsRepository.closeOpenOfPet
UPDATE applications
SET
  status = $1,
  history = history || jsonb_build_array(
    jsonb_strip_nulls(
      jsonb_build_object(
        'status',
        $2::text,
        'at',
        to_char(
          now() AT TIME ZONE 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
        ),
        'by',
        $3::text,
        'note',
        $4::text
      )
    )
  ),
  updated_at = now(),
  ended_at = CASE
    WHEN $5::text IN ('declined', 'withdrawn', 'closed') THEN now()
  END,
  closed_reason = $6
WHERE
  pet_id = $7
  AND status = ANY ($8::text[])
RETURNING
  id,
  seq,
  pet_id,
  applicant_account_id,
  lister_account_id,
  status,
  form_version,
  answers,
  contact,
  email_consent,
  order_id,
  closed_reason,
  history,
  created_at,
  updated_at

-- ApplicationsRepository.erasePersonalData
WITH
  erased AS (
    UPDATE applications
    SET
      contact = NULL,
      contact_email_canonical = NULL,
      answers = '[]'::jsonb
    WHERE
      id = ANY ($1::text[])
    RETURNING
      id
  )
UPDATE application_messages
SET
  body = NULL
WHERE
  application_id IN (
    SELECT
      id
    FROM
      erased
  )
  AND body IS NOT NULL

-- ApplicationsRepository.findById
SELECT
  id,
  seq,
  pet_id,
  applicant_account_id,
  lister_account_id,
  status,
  form_version,
  answers,
  contact,
  email_consent,
  order_id,
  closed_reason,
  history,
  created_at,
  updated_at
FROM
  applications
WHERE
  id = $1

-- ApplicationsRepository.findPastRetention
SELECT
  id
FROM
  applications
WHERE
  ended_at IS NOT NULL
  AND contact IS NOT NULL
  AND ended_at < now() - make_interval(days => $1)
ORDER BY
  ended_at
LIMIT
  $2

-- ApplicationsRepository.followOrder
UPDATE applications
SET
  status = $1,
  history = history || jsonb_build_array(
    jsonb_strip_nulls(
      jsonb_build_object(
        'status',
        $2::text,
        'at',
        to_char(
          now() AT TIME ZONE 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
        ),
        'by',
        $3::text,
        'note',
        $4::text
      )
    )
  ),
  updated_at = now(),
  ended_at = CASE
    WHEN $5::text IN ('declined', 'withdrawn', 'closed') THEN now()
  END,
  closed_reason = $6
WHERE
  order_id = $7
  AND status = ANY ($8::text[])
RETURNING
  id,
  seq,
  pet_id,
  applicant_account_id,
  lister_account_id,
  status,
  form_version,
  answers,
  contact,
  email_consent,
  order_id,
  closed_reason,
  history,
  created_at,
  updated_at

-- ApplicationsRepository.insert
SELECT
  pg_advisory_xact_lock($1, hashtext ($2))

SELECT
  count(*) AS count,
  coalesce(bool_or(pet_id = $1), false) AS exists
FROM
  applications
WHERE
  contact_email_canonical = $2
  AND status = ANY ($3::text[])

-- ApplicationsRepository.list (either side, first page)
SELECT
  id,
  seq,
  pet_id,
  applicant_account_id,
  lister_account_id,
  status,
  form_version,
  answers,
  contact,
  email_consent,
  order_id,
  closed_reason,
  history,
  created_at,
  updated_at
FROM
  (
    (
      SELECT
        id,
        seq,
        pet_id,
        applicant_account_id,
        lister_account_id,
        status,
        form_version,
        answers,
        contact,
        email_consent,
        order_id,
        closed_reason,
        history,
        created_at,
        updated_at
      FROM
        applications
      WHERE
        $1::text IS DISTINCT FROM $2
        AND applicant_account_id = $3
        AND seq < $4
        AND (
          $5::text IS NULL
          OR status = $6
        )
        AND (
          $7::bigint IS NULL
          OR pet_id = $8
        )
      ORDER BY
        seq DESC
      LIMIT
        $9
    )
    UNION ALL
    (
      SELECT
        id,
        seq,
        pet_id,
        applicant_account_id,
        lister_account_id,
        status,
        form_version,
        answers,
        contact,
        email_consent,
        order_id,
        closed_reason,
        history,
        created_at,
        updated_at
      FROM
        applications
      WHERE
        $10::text IS DISTINCT FROM $11
        AND lister_account_id = $12
        AND seq < $13
        AND (
          $14::text IS NULL
          OR status = $15
        )
        AND (
          $16::bigint IS NULL
          OR pet_id = $17
        )
      ORDER BY
        seq DESC
      LIMIT
        $18
    )
  ) both_sides
ORDER BY
  seq DESC
LIMIT
  $19

-- ApplicationsRepository.list (as lister, submitted, of a pet, next page)
SELECT
  id,
  seq,
  pet_id,
  applicant_account_id,
  lister_account_id,
  status,
  form_version,
  answers,
  contact,
  email_consent,
  order_id,
  closed_reason,
  history,
  created_at,
  updated_at
FROM
  (
    (
      SELECT
        id,
        seq,
        pet_id,
        applicant_account_id,
        lister_account_id,
        status,
        form_version,
        answers,
        contact,
        email_consent,
        order_id,
        closed_reason,
        history,
        created_at,
        updated_at
      FROM
        applications
      WHERE
        $1::text IS DISTINCT FROM $2
        AND applicant_account_id = $3
        AND seq < $4
        AND (
          $5::text IS NULL
          OR status = $6
        )
        AND (
          $7::bigint IS NULL
          OR pet_id = $8
        )
      ORDER BY
        seq DESC
      LIMIT
        $9
    )
    UNION ALL
    (
      SELECT
        id,
        seq,
        pet_id,
        applicant_account_id,
        lister_account_id,
        status,
        form_version,
        answers,
        contact,
        email_consent,
        order_id,
        closed_reason,
        history,
        created_at,
        updated_at
      FROM
        applications
      WHERE
        $10::text IS DISTINCT FROM $11
        AND lister_account_id = $12
        AND seq < $13
        AND (
          $14::text IS NULL
          OR status = $15
        )
        AND (
          $16::bigint IS NULL
          OR pet_id = $17
        )
      ORDER BY
        seq DESC
      LIMIT
        $18
    )
  ) both_sides
ORDER BY
  seq DESC
LIMIT
  $19

-- ApplicationsRepository.setOrder
UPDATE applications
SET
  order_id = $1
WHERE
  id = $2
RETURNING
  id,
  seq,
  pet_id,
  applicant_account_id,
  lister_account_id,
  status,
  form_version,
  answers,
  contact,
  email_consent,
  order_id,
  closed_reason,
  history,
  created_at,
  updated_at

-- ApplicationsRepository.transition
UPDATE applications
SET
  status = $1,
  history = history || jsonb_build_array(
    jsonb_strip_nulls(
      jsonb_build_object(
        'status',
        $2::text,
        'at',
        to_char(
          now() AT TIME ZONE 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
        ),
        'by',
        $3::text,
        'note',
        $4::text
      )
    )
  ),
  updated_at = now(),
  ended_at = CASE
    WHEN $5::text IN ('declined', 'withdrawn', 'closed') THEN now()
  END
WHERE
  id = $6
  AND status = ANY ($7::text[])
  AND lister_account_id = $8
RETURNING
  id,
  seq,
  pet_id,
  applicant_account_id,
  lister_account_id,
  status,
  form_version,
  answers,
  contact,
  email_consent,
  order_id,
  closed_reason,
  history,
  created_at,
  updated_at
