-- Written by `npm run sql` from libs/pets/src/pet-holds.repository.ts: do not edit.

-- PetHoldsRepository.hold
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
UPDATE pets
SET
  status = 'pending',
  open_order_id = hold.order_id,
  updated_at = pet_change.changed_at
FROM
  pet_change,
  unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS hold (pet_id, order_id, lister_account_id)
WHERE
  pets.id = hold.pet_id
  AND pets.status = 'available'
  AND pets.open_order_id IS NULL
  AND pets.lister_account_id = hold.lister_account_id
RETURNING
  pets.id

-- PetHoldsRepository.petsForOrders
SELECT
  id,
  status,
  lister_account_id,
  open_order_id
FROM
  pets
WHERE
  id = ANY ($1::bigint[])

-- PetHoldsRepository.setHeldStatus
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
UPDATE pets
SET
  status = $1,
  open_order_id = CASE
    WHEN $2::boolean THEN NULL
    ELSE open_order_id
  END,
  updated_at = pet_change.changed_at
FROM
  pet_change
WHERE
  id = $3
  AND open_order_id = $4

-- PetHoldsRepository.setUnheldStatus
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
UPDATE pets
SET
  status = $1,
  updated_at = pet_change.changed_at
FROM
  pet_change
WHERE
  id = $2
  AND open_order_id IS NULL
