-- Written by `npm run sql` from libs/pets/src/pet-search.repository.ts: do not edit.

-- PetSearchRepository.categoryExists
SELECT
  1
FROM
  categories
WHERE
  id = $1

-- PetSearchRepository.organizationExists
SELECT
  1
FROM
  organizations
WHERE
  id = $1

-- PetSearchRepository.search (by id)
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
  )::bigint AS version,
  id::text AS sort_key,
  CASE
    WHEN $1::float8 IS NOT NULL THEN round(
      (
        earth_distance (
          ll_to_earth ($2::float8, $3::float8),
          ll_to_earth (latitude, longitude)
        ) / 1000
      )::numeric,
      1
    )
  END AS distance_km
FROM
  pets
WHERE
  (
    $4::text[] IS NULL
    OR status = ANY ($5::text[])
  )
  AND (
    $6::bigint IS NULL
    OR category_id = $7::bigint
  )
  AND (
    $8::text IS NULL
    OR sex = $9::text
  )
  AND (
    $10::text IS NULL
    OR age_group = $11::text
  )
  AND (
    $12::text IS NULL
    OR size = $13::text
  )
  AND (
    $14::text IS NULL
    OR tags @> ARRAY[$15::text]
  )
  AND (
    $16::text IS NULL
    OR search_document @@ plainto_tsquery('pet_search'::regconfig, $17::text)
  )
  AND (
    $18::bigint IS NULL
    OR lister_account_id = $19::bigint
  )
  AND (
    $20::boolean IS NULL
    OR "good_with_children"
  )
  AND (
    $21::boolean IS NULL
    OR "good_with_dogs"
  )
  AND (
    $22::boolean IS NULL
    OR "good_with_cats"
  )
  AND (
    $23::boolean IS NULL
    OR "house_trained" = $24::boolean
  )
  AND (
    $25::boolean IS NULL
    OR "spayed_neutered" = $26::boolean
  )
  AND (
    $27::boolean IS NULL
    OR "special_needs" = $28::boolean
  )
  AND (
    $29::text IS NULL
    OR coat = $30::text
  )
  AND (
    $31::text IS NULL
    OR colors_lowered @> ARRAY[lower($32::text)]
  )
  AND (
    $33::text IS NULL
    OR organization_id = $34::text
  )
  AND (
    $35::text IS NULL
    OR external_id = $36::text
  )
  AND (
    $37::timestamptz IS NULL
    OR updated_at >= $38::timestamptz
  )
  AND id > $39::bigint
ORDER BY
  id
LIMIT
  $40

-- PetSearchRepository.search (newest first, since)
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
  )::bigint AS version,
  to_char(
    created_at AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'
  ) AS sort_key,
  CASE
    WHEN $1::float8 IS NOT NULL THEN round(
      (
        earth_distance (
          ll_to_earth ($2::float8, $3::float8),
          ll_to_earth (latitude, longitude)
        ) / 1000
      )::numeric,
      1
    )
  END AS distance_km
FROM
  (
    SELECT
      *
    FROM
      pets
    WHERE
      (
        $4::text[] IS NULL
        OR status = ANY ($5::text[])
      )
      AND (
        $6::bigint IS NULL
        OR category_id = $7::bigint
      )
      AND (
        $8::text IS NULL
        OR sex = $9::text
      )
      AND (
        $10::text IS NULL
        OR age_group = $11::text
      )
      AND (
        $12::text IS NULL
        OR size = $13::text
      )
      AND (
        $14::text IS NULL
        OR tags @> ARRAY[$15::text]
      )
      AND (
        $16::text IS NULL
        OR search_document @@ plainto_tsquery('pet_search'::regconfig, $17::text)
      )
      AND (
        $18::bigint IS NULL
        OR lister_account_id = $19::bigint
      )
      AND (
        $20::boolean IS NULL
        OR "good_with_children"
      )
      AND (
        $21::boolean IS NULL
        OR "good_with_dogs"
      )
      AND (
        $22::boolean IS NULL
        OR "good_with_cats"
      )
      AND (
        $23::boolean IS NULL
        OR "house_trained" = $24::boolean
      )
      AND (
        $25::boolean IS NULL
        OR "spayed_neutered" = $26::boolean
      )
      AND (
        $27::boolean IS NULL
        OR "special_needs" = $28::boolean
      )
      AND (
        $29::text IS NULL
        OR coat = $30::text
      )
      AND (
        $31::text IS NULL
        OR colors_lowered @> ARRAY[lower($32::text)]
      )
      AND (
        $33::text IS NULL
        OR organization_id = $34::text
      )
      AND (
        $35::text IS NULL
        OR external_id = $36::text
      )
      AND (
        $37::timestamptz IS NULL
        OR (created_at, id) < ($38::timestamptz, $39::bigint)
      )
    ORDER BY
      created_at DESC,
      id DESC
    LIMIT
      $40
  ) AS pets
WHERE
  (
    $41::timestamptz IS NULL
    OR updated_at >= $42::timestamptz
  )
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $43

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
  )::bigint AS version,
  to_char(
    created_at AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'
  ) AS sort_key,
  CASE
    WHEN $1::float8 IS NOT NULL THEN round(
      (
        earth_distance (
          ll_to_earth ($2::float8, $3::float8),
          ll_to_earth (latitude, longitude)
        ) / 1000
      )::numeric,
      1
    )
  END AS distance_km
FROM
  (
    SELECT
      *
    FROM
      pets
    WHERE
      (
        $4::text[] IS NULL
        OR status = ANY ($5::text[])
      )
      AND (
        $6::bigint IS NULL
        OR category_id = $7::bigint
      )
      AND (
        $8::text IS NULL
        OR sex = $9::text
      )
      AND (
        $10::text IS NULL
        OR age_group = $11::text
      )
      AND (
        $12::text IS NULL
        OR size = $13::text
      )
      AND (
        $14::text IS NULL
        OR tags @> ARRAY[$15::text]
      )
      AND (
        $16::text IS NULL
        OR search_document @@ plainto_tsquery('pet_search'::regconfig, $17::text)
      )
      AND (
        $18::bigint IS NULL
        OR lister_account_id = $19::bigint
      )
      AND (
        $20::boolean IS NULL
        OR "good_with_children"
      )
      AND (
        $21::boolean IS NULL
        OR "good_with_dogs"
      )
      AND (
        $22::boolean IS NULL
        OR "good_with_cats"
      )
      AND (
        $23::boolean IS NULL
        OR "house_trained" = $24::boolean
      )
      AND (
        $25::boolean IS NULL
        OR "spayed_neutered" = $26::boolean
      )
      AND (
        $27::boolean IS NULL
        OR "special_needs" = $28::boolean
      )
      AND (
        $29::text IS NULL
        OR coat = $30::text
      )
      AND (
        $31::text IS NULL
        OR colors_lowered @> ARRAY[lower($32::text)]
      )
      AND (
        $33::text IS NULL
        OR organization_id = $34::text
      )
      AND (
        $35::text IS NULL
        OR external_id = $36::text
      )
      AND (
        $37::timestamptz IS NULL
        OR updated_at >= $38::timestamptz
      )
      AND (
        $39::timestamptz IS NULL
        OR (created_at, id) < ($40::timestamptz, $41::bigint)
      )
    OFFSET
      0
  ) AS pets
WHERE
  true
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $42

-- PetSearchRepository.search (by id, words)
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
  )::bigint AS version,
  id::text AS sort_key,
  CASE
    WHEN $1::float8 IS NOT NULL THEN round(
      (
        earth_distance (
          ll_to_earth ($2::float8, $3::float8),
          ll_to_earth (latitude, longitude)
        ) / 1000
      )::numeric,
      1
    )
  END AS distance_km
FROM
  pets
WHERE
  (
    $4::text[] IS NULL
    OR status = ANY ($5::text[])
  )
  AND (
    $6::bigint IS NULL
    OR category_id = $7::bigint
  )
  AND (
    $8::text IS NULL
    OR sex = $9::text
  )
  AND (
    $10::text IS NULL
    OR age_group = $11::text
  )
  AND (
    $12::text IS NULL
    OR size = $13::text
  )
  AND (
    $14::text IS NULL
    OR tags @> ARRAY[$15::text]
  )
  AND (
    $16::text IS NULL
    OR search_document @@ plainto_tsquery('pet_search'::regconfig, $17::text)
  )
  AND (
    $18::bigint IS NULL
    OR lister_account_id = $19::bigint
  )
  AND (
    $20::boolean IS NULL
    OR "good_with_children"
  )
  AND (
    $21::boolean IS NULL
    OR "good_with_dogs"
  )
  AND (
    $22::boolean IS NULL
    OR "good_with_cats"
  )
  AND (
    $23::boolean IS NULL
    OR "house_trained" = $24::boolean
  )
  AND (
    $25::boolean IS NULL
    OR "spayed_neutered" = $26::boolean
  )
  AND (
    $27::boolean IS NULL
    OR "special_needs" = $28::boolean
  )
  AND (
    $29::text IS NULL
    OR coat = $30::text
  )
  AND (
    $31::text IS NULL
    OR colors_lowered @> ARRAY[lower($32::text)]
  )
  AND (
    $33::text IS NULL
    OR organization_id = $34::text
  )
  AND (
    $35::text IS NULL
    OR external_id = $36::text
  )
  AND (
    $37::timestamptz IS NULL
    OR updated_at >= $38::timestamptz
  )
  AND id > (
    SELECT
      $39::bigint
  )
ORDER BY
  id
LIMIT
  $40

-- PetSearchRepository.search (by updatedAt)
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
  )::bigint AS version,
  to_char(
    updated_at AT TIME ZONE 'UTC',
    'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'
  ) AS sort_key,
  CASE
    WHEN $1::float8 IS NOT NULL THEN round(
      (
        earth_distance (
          ll_to_earth ($2::float8, $3::float8),
          ll_to_earth (latitude, longitude)
        ) / 1000
      )::numeric,
      1
    )
  END AS distance_km
FROM
  pets
WHERE
  (
    $4::text[] IS NULL
    OR status = ANY ($5::text[])
  )
  AND (
    $6::bigint IS NULL
    OR category_id = $7::bigint
  )
  AND (
    $8::text IS NULL
    OR sex = $9::text
  )
  AND (
    $10::text IS NULL
    OR age_group = $11::text
  )
  AND (
    $12::text IS NULL
    OR size = $13::text
  )
  AND (
    $14::text IS NULL
    OR tags @> ARRAY[$15::text]
  )
  AND (
    $16::text IS NULL
    OR search_document @@ plainto_tsquery('pet_search'::regconfig, $17::text)
  )
  AND (
    $18::bigint IS NULL
    OR lister_account_id = $19::bigint
  )
  AND (
    $20::boolean IS NULL
    OR "good_with_children"
  )
  AND (
    $21::boolean IS NULL
    OR "good_with_dogs"
  )
  AND (
    $22::boolean IS NULL
    OR "good_with_cats"
  )
  AND (
    $23::boolean IS NULL
    OR "house_trained" = $24::boolean
  )
  AND (
    $25::boolean IS NULL
    OR "spayed_neutered" = $26::boolean
  )
  AND (
    $27::boolean IS NULL
    OR "special_needs" = $28::boolean
  )
  AND (
    $29::text IS NULL
    OR coat = $30::text
  )
  AND (
    $31::text IS NULL
    OR colors_lowered @> ARRAY[lower($32::text)]
  )
  AND (
    $33::text IS NULL
    OR organization_id = $34::text
  )
  AND (
    $35::text IS NULL
    OR external_id = $36::text
  )
  AND (
    $37::timestamptz IS NULL
    OR updated_at >= $38::timestamptz
  )
  AND (
    $39::timestamptz IS NULL
    OR (updated_at, id) > ($40::timestamptz, $41::bigint)
  )
ORDER BY
  updated_at,
  id
LIMIT
  $42

-- PetSearchRepository.search (by id, near)
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
  )::bigint AS version,
  id::text AS sort_key,
  CASE
    WHEN $1::float8 IS NOT NULL THEN round(
      (
        earth_distance (
          ll_to_earth ($2::float8, $3::float8),
          ll_to_earth (latitude, longitude)
        ) / 1000
      )::numeric,
      1
    )
  END AS distance_km
FROM
  (
    SELECT
      *
    FROM
      pets
    WHERE
      (
        $4::text[] IS NULL
        OR status = ANY ($5::text[])
      )
      AND (
        $6::bigint IS NULL
        OR category_id = $7::bigint
      )
      AND (
        $8::text IS NULL
        OR sex = $9::text
      )
      AND (
        $10::text IS NULL
        OR age_group = $11::text
      )
      AND (
        $12::text IS NULL
        OR size = $13::text
      )
      AND (
        $14::text IS NULL
        OR tags @> ARRAY[$15::text]
      )
      AND (
        $16::text IS NULL
        OR search_document @@ plainto_tsquery('pet_search'::regconfig, $17::text)
      )
      AND (
        $18::bigint IS NULL
        OR lister_account_id = $19::bigint
      )
      AND (
        $20::boolean IS NULL
        OR "good_with_children"
      )
      AND (
        $21::boolean IS NULL
        OR "good_with_dogs"
      )
      AND (
        $22::boolean IS NULL
        OR "good_with_cats"
      )
      AND (
        $23::boolean IS NULL
        OR "house_trained" = $24::boolean
      )
      AND (
        $25::boolean IS NULL
        OR "spayed_neutered" = $26::boolean
      )
      AND (
        $27::boolean IS NULL
        OR "special_needs" = $28::boolean
      )
      AND (
        $29::text IS NULL
        OR coat = $30::text
      )
      AND (
        $31::text IS NULL
        OR colors_lowered @> ARRAY[lower($32::text)]
      )
      AND (
        $33::text IS NULL
        OR organization_id = $34::text
      )
      AND (
        $35::text IS NULL
        OR external_id = $36::text
      )
      AND id > $37::bigint
    ORDER BY
      id
    LIMIT
      $38
  ) AS pets
WHERE
  (
    $39::timestamptz IS NULL
    OR updated_at >= $40::timestamptz
  )
  AND latitude BETWEEN $41::float8 AND $42::float8
  AND (
    $43::float8 IS NULL
    OR longitude BETWEEN $44::float8 AND $45::float8
  )
  AND earth_distance (
    ll_to_earth ($46::float8, $47::float8),
    ll_to_earth (latitude, longitude)
  ) <= $48::float8
ORDER BY
  id
LIMIT
  $49

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
  )::bigint AS version,
  id::text AS sort_key,
  CASE
    WHEN $1::float8 IS NOT NULL THEN round(
      (
        earth_distance (
          ll_to_earth ($2::float8, $3::float8),
          ll_to_earth (latitude, longitude)
        ) / 1000
      )::numeric,
      1
    )
  END AS distance_km
FROM
  (
    SELECT
      *
    FROM
      pets
    WHERE
      (
        $4::text[] IS NULL
        OR status = ANY ($5::text[])
      )
      AND (
        $6::bigint IS NULL
        OR category_id = $7::bigint
      )
      AND (
        $8::text IS NULL
        OR sex = $9::text
      )
      AND (
        $10::text IS NULL
        OR age_group = $11::text
      )
      AND (
        $12::text IS NULL
        OR size = $13::text
      )
      AND (
        $14::text IS NULL
        OR tags @> ARRAY[$15::text]
      )
      AND (
        $16::text IS NULL
        OR search_document @@ plainto_tsquery('pet_search'::regconfig, $17::text)
      )
      AND (
        $18::bigint IS NULL
        OR lister_account_id = $19::bigint
      )
      AND (
        $20::boolean IS NULL
        OR "good_with_children"
      )
      AND (
        $21::boolean IS NULL
        OR "good_with_dogs"
      )
      AND (
        $22::boolean IS NULL
        OR "good_with_cats"
      )
      AND (
        $23::boolean IS NULL
        OR "house_trained" = $24::boolean
      )
      AND (
        $25::boolean IS NULL
        OR "spayed_neutered" = $26::boolean
      )
      AND (
        $27::boolean IS NULL
        OR "special_needs" = $28::boolean
      )
      AND (
        $29::text IS NULL
        OR coat = $30::text
      )
      AND (
        $31::text IS NULL
        OR colors_lowered @> ARRAY[lower($32::text)]
      )
      AND (
        $33::text IS NULL
        OR organization_id = $34::text
      )
      AND (
        $35::text IS NULL
        OR external_id = $36::text
      )
      AND (
        $37::timestamptz IS NULL
        OR updated_at >= $38::timestamptz
      )
      AND earth_box (
        ll_to_earth ($39::float8, $40::float8),
        $41::float8
      ) @> ll_to_earth (latitude, longitude)
      AND latitude BETWEEN $42::float8 AND $43::float8
      AND (
        $44::float8 IS NULL
        OR longitude BETWEEN $45::float8 AND $46::float8
      )
      AND earth_distance (
        ll_to_earth ($47::float8, $48::float8),
        ll_to_earth (latitude, longitude)
      ) <= $49::float8
      AND id > $50::bigint
    OFFSET
      0
  ) AS pets
WHERE
  true
ORDER BY
  id
LIMIT
  $51

-- PetSearchRepository.search (nearest first)
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
  )::bigint AS version,
  chord::text AS sort_key,
  CASE
    WHEN $1::float8 IS NOT NULL THEN round(
      (
        earth_distance (
          ll_to_earth ($2::float8, $3::float8),
          ll_to_earth (latitude, longitude)
        ) / 1000
      )::numeric,
      1
    )
  END AS distance_km
FROM
  (
    SELECT
      *,
      (
        ll_to_earth (latitude, longitude) <-> ll_to_earth ($4::float8, $5::float8)
      ) AS chord
    FROM
      pets
    WHERE
      (
        $6::text[] IS NULL
        OR status = ANY ($7::text[])
      )
      AND (
        $8::bigint IS NULL
        OR category_id = $9::bigint
      )
      AND (
        $10::text IS NULL
        OR sex = $11::text
      )
      AND (
        $12::text IS NULL
        OR age_group = $13::text
      )
      AND (
        $14::text IS NULL
        OR size = $15::text
      )
      AND (
        $16::text IS NULL
        OR tags @> ARRAY[$17::text]
      )
      AND (
        $18::text IS NULL
        OR search_document @@ plainto_tsquery('pet_search'::regconfig, $19::text)
      )
      AND (
        $20::bigint IS NULL
        OR lister_account_id = $21::bigint
      )
      AND (
        $22::boolean IS NULL
        OR "good_with_children"
      )
      AND (
        $23::boolean IS NULL
        OR "good_with_dogs"
      )
      AND (
        $24::boolean IS NULL
        OR "good_with_cats"
      )
      AND (
        $25::boolean IS NULL
        OR "house_trained" = $26::boolean
      )
      AND (
        $27::boolean IS NULL
        OR "spayed_neutered" = $28::boolean
      )
      AND (
        $29::boolean IS NULL
        OR "special_needs" = $30::boolean
      )
      AND (
        $31::text IS NULL
        OR coat = $32::text
      )
      AND (
        $33::text IS NULL
        OR colors_lowered @> ARRAY[lower($34::text)]
      )
      AND (
        $35::text IS NULL
        OR organization_id = $36::text
      )
      AND (
        $37::text IS NULL
        OR external_id = $38::text
      )
      AND (
        $39::timestamptz IS NULL
        OR updated_at >= $40::timestamptz
      )
      AND latitude BETWEEN $41::float8 AND $42::float8
      AND (
        $43::float8 IS NULL
        OR longitude BETWEEN $44::float8 AND $45::float8
      )
      AND earth_distance (
        ll_to_earth ($46::float8, $47::float8),
        ll_to_earth (latitude, longitude)
      ) <= $48::float8
    ORDER BY
      (
        ll_to_earth (latitude, longitude) <-> ll_to_earth ($49::float8, $50::float8)
      )
  ) AS pets
WHERE
  (
    $51::float8 IS NULL
    OR (chord, id) > ($52::float8, $53::bigint)
  )
ORDER BY
  chord,
  id
LIMIT
  $54
