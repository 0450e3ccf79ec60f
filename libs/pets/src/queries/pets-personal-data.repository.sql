-- Written by `npm run sql` from libs/pets/src/pets-personal-data.repository.ts: do not edit.

-- PetsPersonalDataRepository.anyListed
SELECT
  EXISTS (
    SELECT
    FROM
      pets
    WHERE
      lister_account_id = $1
  ) AS any

-- PetsPersonalDataRepository.deleteListed
DELETE FROM pets
WHERE
  id IN (
    SELECT
      id
    FROM
      pets
    WHERE
      lister_account_id = $1
      AND open_order_id IS NULL
    ORDER BY
      id
    LIMIT
      $2
    FOR UPDATE
  )
  AND open_order_id IS NULL
RETURNING
  id,
  name,
  category_id,
  status,
  sex,
  photos,
  created_at,
  updated_at,
  description,
  breed,
  age_group,
  size,
  tags,
  photo_urls,
  latitude,
  longitude,
  spayed_neutered,
  house_trained,
  declawed,
  special_needs,
  shots_current,
  special_needs_notes,
  good_with_children,
  good_with_dogs,
  good_with_cats,
  coat,
  colors,
  secondary_breed,
  mixed_breed,
  external_id,
  organization_id,
  lister_account_id,
  open_order_id IS NOT NULL AS has_open_order,
  (
    extract(
      epoch
      FROM
        updated_at
    ) * 1000000
  )::bigint AS version

-- PetsPersonalDataRepository.listed
SELECT
  id,
  name,
  category_id,
  status,
  sex,
  photos,
  created_at,
  updated_at,
  description,
  breed,
  age_group,
  size,
  tags,
  photo_urls,
  latitude,
  longitude,
  spayed_neutered,
  house_trained,
  declawed,
  special_needs,
  shots_current,
  special_needs_notes,
  good_with_children,
  good_with_dogs,
  good_with_cats,
  coat,
  colors,
  secondary_breed,
  mixed_breed,
  external_id,
  organization_id,
  lister_account_id,
  open_order_id IS NOT NULL AS has_open_order,
  (
    extract(
      epoch
      FROM
        updated_at
    ) * 1000000
  )::bigint AS version
FROM
  pets
WHERE
  lister_account_id = $1
  AND id > $2
ORDER BY
  id
LIMIT
  $3
