-- Written by `npm run sql` from libs/organizations/src/organizations.repository.ts: do not edit.

-- OrganizationsRepository.delete
DELETE FROM organizations
WHERE
  id = $1

-- OrganizationsRepository.findById
SELECT
  id,
  name,
  description,
  email,
  phone,
  website,
  adoption_policy,
  adoption_url,
  address,
  latitude,
  longitude,
  hours,
  social_media,
  created_at,
  updated_at,
  sort_key,
  distance_km,
  (
    extract(
      epoch
      FROM
        updated_at
    ) * 1000000
  )::bigint AS version,
  (
    SELECT
      ARRAY[counts.available, counts.pending, counts.sold]
    FROM
      organization_animal_counts counts
    WHERE
      counts.organization_id = page.id
  ) AS animal_counts
FROM
  (
    SELECT
      *,
      id AS sort_key,
      NULL::numeric AS distance_km
    FROM
      organizations
    WHERE
      id = $1
  ) AS page
ORDER BY
  id

-- OrganizationsRepository.findOwn
SELECT
  id,
  name,
  description,
  email,
  phone,
  website,
  adoption_policy,
  adoption_url,
  address,
  latitude,
  longitude,
  hours,
  social_media,
  created_at,
  updated_at,
  sort_key,
  distance_km,
  (
    extract(
      epoch
      FROM
        updated_at
    ) * 1000000
  )::bigint AS version,
  (
    SELECT
      ARRAY[counts.available, counts.pending, counts.sold]
    FROM
      organization_animal_counts counts
    WHERE
      counts.organization_id = page.id
  ) AS animal_counts
FROM
  (
    SELECT
      *,
      id AS sort_key,
      NULL::numeric AS distance_km
    FROM
      organizations
    WHERE
      account_id = $1
  ) AS page
ORDER BY
  id

-- OrganizationsRepository.insert
INSERT INTO
  organizations (
    id,
    account_id,
    name,
    description,
    email,
    phone,
    website,
    adoption_policy,
    adoption_url,
    address,
    latitude,
    longitude,
    hours,
    social_media
  )
VALUES
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8,
    $9,
    $10::jsonb,
    $11::float8,
    $12::float8,
    $13::jsonb,
    $14::jsonb
  )
ON CONFLICT (account_id) DO NOTHING
RETURNING
  id

-- OrganizationsRepository.lockOwn
SELECT
  id,
  (
    extract(
      epoch
      FROM
        updated_at
    ) * 1000000
  )::bigint AS version
FROM
  organizations
WHERE
  account_id = $1
FOR NO KEY UPDATE

-- OrganizationsRepository.replace
UPDATE organizations
SET
  (
    name,
    description,
    email,
    phone,
    website,
    adoption_policy,
    adoption_url,
    address,
    latitude,
    longitude,
    hours,
    social_media
  ) = (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    $8::jsonb,
    $9::float8,
    $10::float8,
    $11::jsonb,
    $12::jsonb
  ),
  updated_at = greatest(
    clock_timestamp(),
    updated_at + interval '1 microsecond'
  )
WHERE
  account_id = $13
  AND (
    $14::bigint[] IS NULL
    OR (
      extract(
        epoch
        FROM
          updated_at
      ) * 1000000
    )::bigint = ANY ($15::bigint[])
  )

-- OrganizationsRepository.search (by name)
SELECT
  id,
  name,
  description,
  email,
  phone,
  website,
  adoption_policy,
  adoption_url,
  address,
  latitude,
  longitude,
  hours,
  social_media,
  created_at,
  updated_at,
  sort_key,
  distance_km,
  (
    extract(
      epoch
      FROM
        updated_at
    ) * 1000000
  )::bigint AS version,
  (
    SELECT
      ARRAY[counts.available, counts.pending, counts.sold]
    FROM
      organization_animal_counts counts
    WHERE
      counts.organization_id = page.id
  ) AS animal_counts
FROM
  (
    SELECT
      *,
      name AS sort_key,
      NULL::numeric AS distance_km
    FROM
      (
        SELECT
          *,
          place <-> cube (
            cube (
              cube (
                6378168::float8 * cos(radians($1::float8)) * cos(radians($2::float8))
              ),
              6378168::float8 * cos(radians($3::float8)) * sin(radians($4::float8))
            ),
            6378168::float8 * sin(radians($5::float8))
          ) AS chord
        FROM
          organizations
        WHERE
          true
          AND true
          AND true
      ) AS organizations
    WHERE
      (
        $6::text IS NULL
        OR (name, id) > ($7::text, $8::text)
      )
    ORDER BY
      name,
      id
    LIMIT
      $9
  ) AS page
ORDER BY
  name,
  id

-- OrganizationsRepository.search (words and country, newest first)
SELECT
  id,
  name,
  description,
  email,
  phone,
  website,
  adoption_policy,
  adoption_url,
  address,
  latitude,
  longitude,
  hours,
  social_media,
  created_at,
  updated_at,
  sort_key,
  distance_km,
  (
    extract(
      epoch
      FROM
        updated_at
    ) * 1000000
  )::bigint AS version,
  (
    SELECT
      ARRAY[counts.available, counts.pending, counts.sold]
    FROM
      organization_animal_counts counts
    WHERE
      counts.organization_id = page.id
  ) AS animal_counts
FROM
  (
    SELECT
      *,
      to_char(
        created_at AT TIME ZONE 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'
      ) AS sort_key,
      NULL::numeric AS distance_km
    FROM
      (
        SELECT
          *,
          place <-> cube (
            cube (
              cube (
                6378168::float8 * cos(radians($1::float8)) * cos(radians($2::float8))
              ),
              6378168::float8 * cos(radians($3::float8)) * sin(radians($4::float8))
            ),
            6378168::float8 * sin(radians($5::float8))
          ) AS chord
        FROM
          organizations
        WHERE
          to_tsvector(
            'pet_search'::regconfig,
            name || ' ' || coalesce(address ->> 'city', '') || ' ' || coalesce(description, '')
          ) @@ plainto_tsquery('pet_search'::regconfig, $6::text)
          AND address ->> 'country' = $7::text
          AND true
      ) AS organizations
    WHERE
      (
        $8::text IS NULL
        OR (created_at, id) < ($9::timestamptz, $10::text)
      )
    ORDER BY
      created_at DESC,
      id DESC
    LIMIT
      $11
  ) AS page
ORDER BY
  created_at DESC,
  id DESC

-- OrganizationsRepository.search (nearest first)
SELECT
  id,
  name,
  description,
  email,
  phone,
  website,
  adoption_policy,
  adoption_url,
  address,
  latitude,
  longitude,
  hours,
  social_media,
  created_at,
  updated_at,
  sort_key,
  distance_km,
  (
    extract(
      epoch
      FROM
        updated_at
    ) * 1000000
  )::bigint AS version,
  (
    SELECT
      ARRAY[counts.available, counts.pending, counts.sold]
    FROM
      organization_animal_counts counts
    WHERE
      counts.organization_id = page.id
  ) AS animal_counts
FROM
  (
    SELECT
      *,
      chord::text AS sort_key,
      round(
        (
          2 * 6378168::float8 * asin(
            least(
              cube_distance (
                cube (
                  cube (
                    cube (
                      6378168::float8 * cos(radians($1::float8)) * cos(radians($2::float8))
                    ),
                    6378168::float8 * cos(radians($3::float8)) * sin(radians($4::float8))
                  ),
                  6378168::float8 * sin(radians($5::float8))
                ),
                place
              ) / (2 * 6378168::float8),
              1
            )
          ) / 1000
        )::numeric,
        1
      ) AS distance_km
    FROM
      (
        SELECT
          *,
          place <-> cube (
            cube (
              cube (
                6378168::float8 * cos(radians($6::float8)) * cos(radians($7::float8))
              ),
              6378168::float8 * cos(radians($8::float8)) * sin(radians($9::float8))
            ),
            6378168::float8 * sin(radians($10::float8))
          ) AS chord
        FROM
          organizations
        WHERE
          true
          AND true
          AND cube_enlarge (
            cube (
              cube (
                cube (
                  6378168::float8 * cos(radians($11::float8)) * cos(radians($12::float8))
                ),
                6378168::float8 * cos(radians($13::float8)) * sin(radians($14::float8))
              ),
              6378168::float8 * sin(radians($15::float8))
            ),
            2 * 6378168::float8 * sin($16::float8 / (2 * 6378168::float8)),
            3
          ) @> place
          AND 2 * 6378168::float8 * asin(
            least(
              cube_distance (
                cube (
                  cube (
                    cube (
                      6378168::float8 * cos(radians($17::float8)) * cos(radians($18::float8))
                    ),
                    6378168::float8 * cos(radians($19::float8)) * sin(radians($20::float8))
                  ),
                  6378168::float8 * sin(radians($21::float8))
                ),
                place
              ) / (2 * 6378168::float8),
              1
            )
          ) <= $22::float8
      ) AS organizations
    WHERE
      (
        $23::text IS NULL
        OR (chord, id) > ($24::float8, $25::text)
      )
    ORDER BY
      chord,
      id
    LIMIT
      $26
  ) AS page
ORDER BY
  chord,
  id
