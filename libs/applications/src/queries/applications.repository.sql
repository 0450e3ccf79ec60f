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

-- ApplicationsRepository.erasePersonalData (all)
WITH
  erased AS (
    UPDATE applications
    SET
      contact = NULL,
      contact_email_canonical = NULL,
      answers = '[]'::jsonb
    WHERE
      id = ANY ($1::text[])
      AND $2::text <> 'lister'
  )
UPDATE application_messages
SET
  body = NULL
WHERE
  application_id = ANY ($3::text[])
  AND body IS NOT NULL
  AND (
    $4::text = 'all'
    OR sender = $5
  )

-- ApplicationsRepository.erasePersonalData (the lister's messages)
WITH
  erased AS (
    UPDATE applications
    SET
      contact = NULL,
      contact_email_canonical = NULL,
      answers = '[]'::jsonb
    WHERE
      id = ANY ($1::text[])
      AND $2::text <> 'lister'
  )
UPDATE application_messages
SET
  body = NULL
WHERE
  application_id = ANY ($3::text[])
  AND body IS NOT NULL
  AND (
    $4::text = 'all'
    OR sender = $5
  )

-- ApplicationsRepository.exported
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
  (
    applicant_account_id = $1
    OR lister_account_id = $2
  )
  AND seq > $3
ORDER BY
  seq
LIMIT
  $4

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

-- ApplicationsRepository.findOpenAsApplicant
SELECT
  id
FROM
  applications
WHERE
  applicant_account_id = $1
  AND status = ANY ($2::text[])
ORDER BY
  seq
LIMIT
  $3

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

-- ApplicationsRepository.findWithDataOf (as applicant)
SELECT
  a.id
FROM
  applications a
WHERE
  a.applicant_account_id = $1
  AND (
    (
      a.contact IS NOT NULL
      OR a.answers <> '[]'::jsonb
    )
    OR EXISTS (
      SELECT
      FROM
        application_messages m
      WHERE
        m.application_id = a.id
        AND m.sender = $2
        AND m.body IS NOT NULL
    )
  )
ORDER BY
  a.seq
LIMIT
  $3

-- ApplicationsRepository.findWithDataOf (as lister)
SELECT
  a.id
FROM
  applications a
WHERE
  a.lister_account_id = $1
  AND (
    false
    OR EXISTS (
      SELECT
      FROM
        application_messages m
      WHERE
        m.application_id = a.id
        AND m.sender = $2
        AND m.body IS NOT NULL
    )
  )
ORDER BY
  a.seq
LIMIT
  $3

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

-- ApplicationsRepository.insertAll
SELECT
  pg_advisory_xact_lock($1, key)
FROM
  (
    SELECT DISTINCT
      hashtext (email) AS key
    FROM
      unnest($2::text[]) AS email
    ORDER BY
      key
  ) AS keys

WITH
  submitted AS (
    SELECT
      *
    FROM
      unnest(
        $1::text[],
        $2::bigint[],
        $3::bigint[],
        $4::bigint[],
        $5::int[],
        $6::jsonb[],
        $7::jsonb[],
        $8::text[],
        $9::boolean[]
      ) AS s (
        id,
        pet_id,
        applicant_account_id,
        lister_account_id,
        form_version,
        answers,
        contact,
        contact_email_canonical,
        email_consent
      )
  ),
  decided AS (
    SELECT
      s.*,
      CASE
        WHEN bool_or(held.pet_id = s.pet_id) THEN 'exists'
        WHEN count(held.id) >= $10 THEN 'too_many'
      END AS refusal
    FROM
      submitted s
      LEFT JOIN applications held ON held.contact_email_canonical = s.contact_email_canonical
      AND held.status = ANY ($11::text[])
    GROUP BY
      s.id,
      s.pet_id,
      s.applicant_account_id,
      s.lister_account_id,
      s.form_version,
      s.answers,
      s.contact,
      s.contact_email_canonical,
      s.email_consent
  ),
  inserted AS (
    INSERT INTO
      applications (
        id,
        pet_id,
        applicant_account_id,
        lister_account_id,
        form_version,
        answers,
        contact,
        contact_email_canonical,
        email_consent,
        history
      )
    SELECT
      id,
      pet_id,
      applicant_account_id,
      lister_account_id,
      form_version,
      answers,
      contact,
      contact_email_canonical,
      email_consent,
      jsonb_build_array(
        jsonb_strip_nulls(
          jsonb_build_object(
            'status',
            $12::text,
            'at',
            to_char(
              now() AT TIME ZONE 'UTC',
              'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
            ),
            'by',
            $13::text,
            'note',
            $14::text
          )
        )
      )
    FROM
      decided
    WHERE
      refusal IS NULL
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
  )
SELECT
  decided.id AS submitted_id,
  decided.refusal,
  inserted.*
FROM
  decided
  LEFT JOIN inserted ON inserted.id = decided.id

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
