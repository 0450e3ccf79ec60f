-- Written by `npm run sql` from libs/applications/src/application-forms.repository.ts: do not edit.

-- ApplicationFormsRepository.delete
DELETE FROM application_forms
WHERE
  account_id = $1

-- ApplicationFormsRepository.find
SELECT
  account_id,
  version,
  fields,
  notify_email,
  updated_at
FROM
  application_forms
WHERE
  account_id = ANY ($1::bigint[])

-- ApplicationFormsRepository.put
INSERT INTO
  application_forms AS form (account_id, version, fields, notify_email)
VALUES
  ($1, 1, $2::jsonb, $3)
ON CONFLICT (account_id) DO UPDATE
SET
  version = form.version + CASE
    WHEN form.fields = EXCLUDED.fields THEN 0
    ELSE 1
  END,
  fields = EXCLUDED.fields,
  notify_email = EXCLUDED.notify_email,
  updated_at = now()
RETURNING
  version,
  fields,
  notify_email,
  updated_at
