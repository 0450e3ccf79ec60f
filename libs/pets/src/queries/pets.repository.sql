-- Written by `npm run sql` from libs/pets/src/pets.repository.ts: do not edit.

-- PetsRepository.delete
DELETE FROM pets
WHERE
  id = $1
  AND lister_account_id = $2
  AND open_order_id IS NULL
  AND (
    $3::bigint[] IS NULL
    OR (
      extract(
        epoch
        FROM
          updated_at
      ) * 1000000
    )::bigint = ANY ($4::bigint[])
  )
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

-- PetsRepository.findByExternalId
SELECT
  q.position,
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
  unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS q (lister, external, position)
  JOIN pets ON lister_account_id = q.lister
  AND external_id = q.external

-- PetsRepository.findById
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
  id = ANY ($1::bigint[])

-- PetsRepository.insert
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
  ),
  batch AS (
    SELECT
      nextval('pets_id_seq') AS id,
      t.ordinality AS position,
      pet_change.changed_at,
      t.lister_account_id,
      name,
      category_id,
      status,
      sex,
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
      external_id
    FROM
      pet_change,
      ROWS
    FROM
      (jsonb_populate_recordset(NULL::pets, $1::jsonb)) WITH ORDINALITY AS t
  ),
  inserted AS (
    INSERT INTO
      pets (
        id,
        name,
        category_id,
        status,
        sex,
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
        lister_account_id,
        organization_id,
        created_at,
        updated_at
      )
    SELECT
      id,
      name,
      category_id,
      status,
      sex,
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
      lister_account_id,
      lister_organization_id (lister_account_id),
      changed_at,
      changed_at
    FROM
      batch
    WHERE
      EXISTS (
        SELECT
        FROM
          categories c
        WHERE
          c.id = batch.category_id
      )
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
  ),
  created AS (
    SELECT
      i.*,
      b.position
    FROM
      inserted i
      JOIN batch b USING (id)
  ),
  recorded AS (
    INSERT INTO
      events (id, account_id, type, object, created_at)
    SELECT
      id,
      account_id,
      type,
      object,
      created_at
    FROM
      (
        SELECT
          ($2::text[]) [position::int] AS id,
          lister_account_id AS account_id,
          $3::text AS type,
          jsonb_strip_nulls(
            jsonb_build_object(
              'id',
              id,
              'name',
              name,
              'categoryId',
              category_id,
              'status',
              status,
              'sex',
              sex,
              'createdAt',
              to_char(
                created_at AT TIME ZONE 'UTC',
                'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
              ),
              'updatedAt',
              to_char(
                updated_at AT TIME ZONE 'UTC',
                'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
              ),
              'description',
              description,
              'breed',
              breed,
              'ageGroup',
              age_group,
              'size',
              size,
              'tags',
              tags,
              'photoUrls',
              photo_urls,
              'location',
              nullif(
                jsonb_strip_nulls(
                  jsonb_build_object('latitude', latitude, 'longitude', longitude)
                ),
                '{}'
              ),
              'attributes',
              nullif(
                jsonb_strip_nulls(
                  jsonb_build_object(
                    'spayedNeutered',
                    spayed_neutered,
                    'houseTrained',
                    house_trained,
                    'declawed',
                    declawed,
                    'specialNeeds',
                    special_needs,
                    'shotsCurrent',
                    shots_current
                  )
                ),
                '{}'
              ),
              'specialNeedsNotes',
              special_needs_notes,
              'environment',
              nullif(
                jsonb_strip_nulls(
                  jsonb_build_object(
                    'children',
                    good_with_children,
                    'dogs',
                    good_with_dogs,
                    'cats',
                    good_with_cats
                  )
                ),
                '{}'
              ),
              'coat',
              coat,
              'colors',
              colors,
              'secondaryBreed',
              secondary_breed,
              'mixedBreed',
              mixed_breed,
              'externalId',
              external_id,
              'organizationId',
              organization_id
            )
          ) || jsonb_build_object('photos', photos) AS object,
          date_trunc('milliseconds', updated_at) AS created_at
        FROM
          created
        WHERE
          lister_account_id IS NOT NULL
        ORDER BY
          position
      ) AS e
  )
SELECT
  *
FROM
  created

-- PetsRepository.listCategories
SELECT
  id,
  name
FROM
  categories
ORDER BY
  id

-- PetsRepository.readPage (any status)
SELECT
  q.position,
  p.*
FROM
  unnest($1::text[], $2::bigint[], $3::int[]) WITH ORDINALITY AS q (status, after_id, row_count, position)
  CROSS JOIN LATERAL (
    (
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
        q.status IS NULL
        AND id > q.after_id
      ORDER BY
        id
      LIMIT
        q.row_count
    )
    UNION ALL
    (
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
        q.status IS NOT NULL
        AND (status, id) > (q.status, q.after_id)
        AND status <= q.status
      ORDER BY
        status,
        id
      LIMIT
        q.row_count
    )
  ) p
ORDER BY
  q.position,
  p.id

-- PetsRepository.setOrganization
SELECT
FROM
  pet_change_clock
FOR NO KEY UPDATE

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
  organization_id = $1::text,
  updated_at = pet_change.changed_at
FROM
  pet_change
WHERE
  lister_account_id = $2
  AND organization_id IS DISTINCT FROM $3::text
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

-- PetsRepository.update
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
  ),
  change AS (
    SELECT
      *
    FROM
      ROWS
    FROM
      (
        jsonb_to_recordset($1::jsonb) AS (
          pet_id bigint,
          patch jsonb,
          lister bigint,
          versions bigint[]
        )
      ) WITH ORDINALITY AS c (pet_id, patch, lister, versions, position)
  ),
  updated AS (
    UPDATE pets p
    SET
      (
        name,
        category_id,
        status,
        sex,
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
        external_id
      ) = (
        SELECT
          name,
          category_id,
          status,
          sex,
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
          external_id
        FROM
          jsonb_populate_record(p, change.patch)
      ),
      updated_at = pet_change.changed_at
    FROM
      pet_change,
      change
    WHERE
      p.id = change.pet_id
      AND p.lister_account_id = change.lister
      AND (
        change.versions IS NULL
        OR (
          extract(
            epoch
            FROM
              updated_at
          ) * 1000000
        )::bigint = ANY (change.versions)
      )
      AND (
        p.open_order_id IS NULL
        OR NOT change.patch ? 'status'
      )
      AND (
        NOT change.patch ? 'category_id'
        OR EXISTS (
          SELECT
          FROM
            categories c
          WHERE
            c.id = (change.patch ->> 'category_id')::bigint
        )
      )
    RETURNING
      change.position,
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
  ),
  recorded AS (
    INSERT INTO
      events (id, account_id, type, object, created_at)
    SELECT
      id,
      account_id,
      type,
      object,
      created_at
    FROM
      (
        SELECT
          ($2::text[]) [position::int] AS id,
          lister_account_id AS account_id,
          $3::text AS type,
          jsonb_strip_nulls(
            jsonb_build_object(
              'id',
              id,
              'name',
              name,
              'categoryId',
              category_id,
              'status',
              status,
              'sex',
              sex,
              'createdAt',
              to_char(
                created_at AT TIME ZONE 'UTC',
                'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
              ),
              'updatedAt',
              to_char(
                updated_at AT TIME ZONE 'UTC',
                'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'
              ),
              'description',
              description,
              'breed',
              breed,
              'ageGroup',
              age_group,
              'size',
              size,
              'tags',
              tags,
              'photoUrls',
              photo_urls,
              'location',
              nullif(
                jsonb_strip_nulls(
                  jsonb_build_object('latitude', latitude, 'longitude', longitude)
                ),
                '{}'
              ),
              'attributes',
              nullif(
                jsonb_strip_nulls(
                  jsonb_build_object(
                    'spayedNeutered',
                    spayed_neutered,
                    'houseTrained',
                    house_trained,
                    'declawed',
                    declawed,
                    'specialNeeds',
                    special_needs,
                    'shotsCurrent',
                    shots_current
                  )
                ),
                '{}'
              ),
              'specialNeedsNotes',
              special_needs_notes,
              'environment',
              nullif(
                jsonb_strip_nulls(
                  jsonb_build_object(
                    'children',
                    good_with_children,
                    'dogs',
                    good_with_dogs,
                    'cats',
                    good_with_cats
                  )
                ),
                '{}'
              ),
              'coat',
              coat,
              'colors',
              colors,
              'secondaryBreed',
              secondary_breed,
              'mixedBreed',
              mixed_breed,
              'externalId',
              external_id,
              'organizationId',
              organization_id
            )
          ) || jsonb_build_object('photos', photos) AS object,
          date_trunc('milliseconds', updated_at) AS created_at
        FROM
          updated
        WHERE
          lister_account_id IS NOT NULL
        ORDER BY
          position
      ) AS e
  )
SELECT
  *
FROM
  updated
