-- Written by `npm run sql` from libs/events/src/webhooks/webhook-endpoints.repository.ts: do not edit.

-- WebhookEndpointsRepository.create
SELECT
  pg_advisory_xact_lock($1, hashtext ($2::text))

INSERT INTO
  webhook_endpoints (
    account_id,
    url,
    event_types,
    description,
    secret_ciphertext
  )
SELECT
  $1,
  $2,
  $3,
  $4,
  $5
WHERE
  (
    SELECT
      count(*)
    FROM
      webhook_endpoints
    WHERE
      account_id = $6
  ) < $7
RETURNING
  id,
  account_id,
  url,
  event_types,
  description,
  enabled,
  secret_ciphertext,
  previous_secret_ciphertext,
  previous_secret_expires_at,
  created_at,
  updated_at

-- WebhookEndpointsRepository.delete
DELETE FROM webhook_endpoints
WHERE
  id = $1
  AND account_id = $2

-- WebhookEndpointsRepository.deleteSome
DELETE FROM webhook_endpoints
WHERE
  id IN (
    SELECT
      id
    FROM
      webhook_endpoints
    WHERE
      account_id = $1
    LIMIT
      $2
  )

-- WebhookEndpointsRepository.exported
SELECT
  id,
  account_id,
  url,
  event_types,
  description,
  enabled,
  secret_ciphertext,
  previous_secret_ciphertext,
  previous_secret_expires_at,
  created_at,
  updated_at
FROM
  webhook_endpoints
WHERE
  account_id = $1
  AND id > $2
ORDER BY
  id
LIMIT
  $3

-- WebhookEndpointsRepository.findOne
SELECT
  id,
  account_id,
  url,
  event_types,
  description,
  enabled,
  secret_ciphertext,
  previous_secret_ciphertext,
  previous_secret_expires_at,
  created_at,
  updated_at
FROM
  webhook_endpoints
WHERE
  id = $1
  AND account_id = $2

-- WebhookEndpointsRepository.list
SELECT
  id,
  account_id,
  url,
  event_types,
  description,
  enabled,
  secret_ciphertext,
  previous_secret_ciphertext,
  previous_secret_expires_at,
  created_at,
  updated_at
FROM
  webhook_endpoints
WHERE
  account_id = $1
ORDER BY
  id

-- WebhookEndpointsRepository.rotateSecret
UPDATE webhook_endpoints
SET
  previous_secret_ciphertext = secret_ciphertext,
  secret_ciphertext = $1,
  previous_secret_expires_at = now() + $2 * interval '1 hour',
  updated_at = now()
WHERE
  id = $3
  AND account_id = $4
RETURNING
  id,
  account_id,
  url,
  event_types,
  description,
  enabled,
  secret_ciphertext,
  previous_secret_ciphertext,
  previous_secret_expires_at,
  created_at,
  updated_at

-- WebhookEndpointsRepository.subscribers
SELECT
  id,
  account_id,
  event_types
FROM
  webhook_endpoints
WHERE
  enabled
  AND account_id = ANY ($1)

-- WebhookEndpointsRepository.targets
SELECT
  id,
  url,
  secret_ciphertext,
  previous_secret_ciphertext,
  previous_secret_expires_at,
  enabled
FROM
  webhook_endpoints
WHERE
  id = ANY ($1)

-- WebhookEndpointsRepository.update (enabled)
UPDATE webhook_endpoints
SET
  enabled = $1,
  updated_at = now()
WHERE
  id = $2
  AND account_id = $3
RETURNING
  id,
  account_id,
  url,
  event_types,
  description,
  enabled,
  secret_ciphertext,
  previous_secret_ciphertext,
  previous_secret_expires_at,
  created_at,
  updated_at

-- WebhookEndpointsRepository.update (every field)
UPDATE webhook_endpoints
SET
  url = $1,
  event_types = $2,
  description = $3,
  enabled = $4,
  updated_at = now()
WHERE
  id = $5
  AND account_id = $6
RETURNING
  id,
  account_id,
  url,
  event_types,
  description,
  enabled,
  secret_ciphertext,
  previous_secret_ciphertext,
  previous_secret_expires_at,
  created_at,
  updated_at
