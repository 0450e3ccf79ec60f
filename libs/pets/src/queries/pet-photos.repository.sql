-- Written by `npm run sql` from libs/pets/src/pet-photos.repository.ts: do not edit.

-- PetPhotosRepository.copyReadyPhotos
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
  photos = (
    SELECT
      coalesce(
        jsonb_agg(
          jsonb_build_object(
            'id',
            id,
            'width',
            width,
            'height',
            height,
            'renditions',
            renditions
          )
          ORDER BY
            position
        ),
        '[]'
      )
    FROM
      photos
    WHERE
      pet_id = $1
      AND status = 'ready'
  ),
  updated_at = pet_change.changed_at
FROM
  pet_change
WHERE
  pets.id = $2
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

-- PetPhotosRepository.lock
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
