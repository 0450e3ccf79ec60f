-- Written by `npm run sql` from libs/applications/src/application-messages.repository.ts: do not edit.

-- ApplicationMessagesRepository.exported
SELECT
  id,
  seq,
  application_id,
  sender,
  body,
  created_at
FROM
  application_messages
WHERE
  application_id = $1
  AND seq > $2
ORDER BY
  seq
LIMIT
  $3

-- ApplicationMessagesRepository.insertAll
INSERT INTO
  application_messages (id, application_id, sender, body)
SELECT
  *
FROM
  unnest($1::text[], $2::text[], $3::text[], $4::text[])
RETURNING
  id,
  seq,
  application_id,
  sender,
  body,
  created_at

-- ApplicationMessagesRepository.insertWhileOpen
WITH
  open AS (
    SELECT
      id
    FROM
      applications
    WHERE
      id = $1
      AND status = ANY ($2::text[])
    FOR SHARE
  )
INSERT INTO
  application_messages (id, application_id, sender, body)
SELECT
  $3,
  id,
  $4,
  $5
FROM
  open
RETURNING
  id,
  seq,
  application_id,
  sender,
  body,
  created_at

-- ApplicationMessagesRepository.list (first page)
SELECT
  id,
  seq,
  application_id,
  sender,
  body,
  created_at
FROM
  application_messages
WHERE
  application_id = $1
  AND seq > $2
ORDER BY
  seq
LIMIT
  $3

-- ApplicationMessagesRepository.list (next page)
SELECT
  id,
  seq,
  application_id,
  sender,
  body,
  created_at
FROM
  application_messages
WHERE
  application_id = $1
  AND seq > $2
ORDER BY
  seq
LIMIT
  $3
