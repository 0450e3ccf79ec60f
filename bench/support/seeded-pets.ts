/**
 * The seeded catalogue: every field of the record spread as a real catalogue's would be, each a function
 * of the pet's id that `seededPet` computes in TypeScript and `SEED_PETS` in SQL, from the same tables and
 * integer arithmetic, so that the two agree to the byte (the bench checks the api's first page against it).
 */

const STATUSES = 'available available available available available available available pending pending sold'.split(
  ' ',
);
export const BREEDS = [
  'Labrador',
  'Beagle',
  'Mixed',
  'German Shepherd',
  'Poodle',
  'Boxer',
  'Dachshund',
  'Husky',
  'Border Collie',
  'Terrier',
  'Maine Coon',
  'Siamese',
  'Persian',
  'Ragdoll',
  'Bengal',
  'Lop',
  'Rex',
  'Budgie',
  'Cockatiel',
  'Bearded Dragon',
];
/** Tags by popularity: the first are common, the last rare. */
export const TAGS = [
  'house-trained',
  'good-with-kids',
  'calm',
  'playful',
  'vaccinated',
  'neutered',
  'good-with-cats',
  'good-with-dogs',
  'indoor',
  'outdoor',
  'senior-friendly',
  'energetic',
  'shy',
  'loves-walks',
  'lap-pet',
  'special-needs',
  'quiet',
  'trained',
  'bonded-pair',
  'deaf',
];
export const TRAITS = ['friendly', 'gentle', 'playful', 'shy', 'curious', 'calm', 'energetic', 'loyal'];
const PASTIMES = ['long walks', 'naps in the sun', 'chasing balls', 'quiet evenings', 'meeting people'];
/** Shelters' cities: most pets with a location are near one. */
export const CITIES: Array<[number, number]> = [
  [52.52, 13.405],
  [48.137, 11.575],
  [50.11, 8.682],
  [53.551, 9.993],
  [51.227, 6.773],
  [48.856, 2.352],
  [45.764, 4.835],
  [43.296, 5.369],
  [51.507, -0.128],
  [53.48, -2.242],
  [55.953, -3.188],
  [52.37, 4.895],
  [50.85, 4.352],
  [47.376, 8.541],
  [48.208, 16.373],
  [50.075, 14.437],
  [52.23, 21.012],
  [41.902, 12.496],
  [45.464, 9.19],
  [40.417, -3.704],
  [41.385, 2.173],
  [38.722, -9.139],
  [59.329, 18.069],
  [55.676, 12.568],
  [60.17, 24.938],
];
const COATS = ['hairless', 'short', 'medium', 'long', 'wire', 'curly'];
/** Colours, as shelters write them (the filter compares them ignoring case). */
export const COLORS = [
  'Black',
  'White',
  'Brown',
  'Grey',
  'Ginger',
  'Cream',
  'Tan',
  'Brindle',
  'Tabby',
  'Tortoiseshell',
  'Golden',
  'Blue',
];
/** The seeded organisations: `org_bench1` … `org_bench10000`, each run by an account of its own. */
export const SEEDED_ORGANIZATIONS = 10_000;
const CREATED_FROM_MS = Date.parse('2024-01-01T00:00:00Z');
/** Seconds between two seeded pets' creation: a million pets span about a year. */
const CREATED_EVERY_S = 30;

/** `(id × multiplier) mod modulus`: the spread of one field, the same in SQL (bigint) and here. */
const spread = (id: number, multiplier: number, modulus: number) => (id * multiplier) % modulus;

const pick = <T>(values: readonly T[], id: number, multiplier: number) =>
  values[spread(id, multiplier, values.length)]!;

export interface SeededPet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
  sex: string;
  /** Seeded pets have none: photos are uploaded through the api (libs/photos). */
  photos: [];
  createdAt: string;
  updatedAt: string;
  description?: string;
  breed?: string;
  ageGroup?: string;
  size?: string;
  tags?: string[];
  photoUrls?: string[];
  location?: { latitude: number; longitude: number };
  attributes?: { spayedNeutered?: boolean; houseTrained?: boolean; specialNeeds?: boolean };
  environment?: { children?: boolean; dogs?: boolean; cats?: boolean };
  coat?: string;
  colors?: string[];
  organizationId?: string;
}

/** `true` below `yes`, `false` below `no`, else unknown: a flag of the adoption-grade record. */
const flag = (id: number, multiplier: number, yes: number, no: number) => {
  const value = spread(id, multiplier, 100);
  return value < yes ? true : value < no ? false : undefined;
};

/** An object of the flags that are known, or undefined when none is (as the api leaves it out). */
const known = <T extends object>(flags: T): T | undefined => {
  const set = Object.entries(flags).filter(([, value]) => value !== undefined);
  return set.length === 0 ? undefined : (Object.fromEntries(set) as T);
};

/** A rare word, in one description in a thousand: the bench's rare `q`. */
export const RARE_WORD = 'whistles';
/** A common word, in one description in eight: the bench's common `q`. */
export const COMMON_WORD = 'friendly';

/** When the i-th seeded pet was created, in milliseconds. */
export const seededCreatedAt = (id: number) => CREATED_FROM_MS + id * CREATED_EVERY_S * 1000;

/** The i-th seeded pet, exactly as the api answers it once `SEED_PETS` wrote it (fields in the api's order). */
export function seededPet(id: number): SeededPet {
  const sex = spread(id, 7919, 100);
  const age = spread(id, 104729, 100);
  const size = spread(id, 1299709, 100);
  const changedMinutes = spread(id, 17, 10) < 3 ? spread(id, 53, 10000) : 0;
  const pet: SeededPet = {
    id,
    name: `Pet ${id}`,
    categoryId: 1 + (id % 7),
    status: STATUSES[id % 10]!,
    sex: sex < 45 ? 'male' : sex < 90 ? 'female' : 'unknown',
    photos: [],
    createdAt: new Date(seededCreatedAt(id)).toISOString(),
    updatedAt: new Date(seededCreatedAt(id) + changedMinutes * 60_000).toISOString(),
  };
  if (spread(id, 11, 10) < 8) {
    pet.description =
      `A ${pick(TRAITS, id, 31)} companion who loves ${pick(PASTIMES, id, 43)}.` +
      (id % 1000 === 7 ? ` Answers to ${RARE_WORD}.` : '');
  }
  if (spread(id, 13, 10) < 7) pet.breed = pick(BREEDS, id, 131);
  if (age >= 5) pet.ageGroup = age < 25 ? 'baby' : age < 55 ? 'young' : age < 90 ? 'adult' : 'senior';
  if (size >= 5) pet.size = size < 35 ? 'small' : size < 70 ? 'medium' : size < 95 ? 'large' : 'xlarge';
  const tagCount = spread(id, 15485863, 4);
  if (tagCount > 0) {
    // Skewed towards the first tags; consecutive picks 7 apart never repeat one.
    const first = TAGS.length - 1 - Math.floor(Math.sqrt(spread(id, 7727, 400)));
    pet.tags = Array.from({ length: tagCount }, (_, k) => TAGS[(first + k * 7) % TAGS.length]!);
  }
  if (spread(id, 19, 10) < 6) pet.photoUrls = [`https://photos.example.com/pets/${id}/1.jpg`];
  if (spread(id, 23, 100) < 85) {
    const [latitude, longitude] = pick(CITIES, id, 613);
    pet.location = {
      latitude: latitude + (spread(id, 37, 1999) - 999) / 10000,
      longitude: longitude + (spread(id, 41, 2003) - 1001) / 10000,
    };
  }
  const attributes = known({
    spayedNeutered: flag(id, 67, 70, 90),
    houseTrained: flag(id, 61, 60, 90),
    specialNeeds: flag(id, 71, 5, 80),
  });
  if (attributes) pet.attributes = attributes;
  const environment = known({ children: flag(id, 43, 60, 80), dogs: flag(id, 47, 50, 80), cats: flag(id, 59, 40, 70) });
  if (environment) pet.environment = environment;
  if (spread(id, 73, 10) < 8) pet.coat = pick(COATS, id, 79);
  if (spread(id, 83, 10) < 7) {
    const primary = spread(id, 89, COLORS.length);
    pet.colors = [COLORS[primary]!, ...(spread(id, 97, 2) === 0 ? [COLORS[(primary + 5) % COLORS.length]!] : [])];
  }
  if (spread(id, 29, 10) < 8) pet.organizationId = `org_bench${1 + spread(id, 7907, SEEDED_ORGANIZATIONS)}`;
  return pet;
}

const sqlTexts = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
/** `flag` in SQL. */
const flagSql = (multiplier: number, yes: number, no: number) =>
  `CASE WHEN (i * ${multiplier}) % 100 < ${yes} THEN true WHEN (i * ${multiplier}) % 100 < ${no} THEN false END`;
const pickSql = (values: readonly string[], multiplier: number) =>
  `(ARRAY[${sqlTexts(values)}])[(1 + (i * ${multiplier}) % ${values.length})::int]`;

/**
 * One INSERT of pets 1..$1 as `seededPet` describes them. Floating point goes through float8 in the same
 * order of operations, so the coordinates are the same doubles.
 */
export const SEED_PETS = `
  INSERT INTO pets (name, category_id, status, sex, created_at, updated_at, description, breed, age_group, size,
                    tags, photo_urls, latitude, longitude, spayed_neutered, house_trained, special_needs,
                    good_with_children, good_with_dogs, good_with_cats, coat, colors, organization_id)
  SELECT 'Pet ' || i, 1 + i % 7, (ARRAY[${sqlTexts(STATUSES)}])[(1 + i % 10)::int],
         CASE WHEN (i * 7919) % 100 < 45 THEN 'male' WHEN (i * 7919) % 100 < 90 THEN 'female' ELSE 'unknown' END,
         created, created + CASE WHEN (i * 17) % 10 < 3 THEN (i * 53) % 10000 ELSE 0 END * interval '1 minute',
         CASE WHEN (i * 11) % 10 < 8 THEN
           'A ' || ${pickSql(TRAITS, 31)} || ' companion who loves ' || ${pickSql(PASTIMES, 43)} || '.'
             || CASE WHEN i % 1000 = 7 THEN ' Answers to ${RARE_WORD}.' ELSE '' END
         END,
         CASE WHEN (i * 13) % 10 < 7 THEN ${pickSql(BREEDS, 131)} END,
         CASE WHEN (i * 104729) % 100 < 5 THEN NULL WHEN (i * 104729) % 100 < 25 THEN 'baby'
              WHEN (i * 104729) % 100 < 55 THEN 'young' WHEN (i * 104729) % 100 < 90 THEN 'adult' ELSE 'senior' END,
         CASE WHEN (i * 1299709) % 100 < 5 THEN NULL WHEN (i * 1299709) % 100 < 35 THEN 'small'
              WHEN (i * 1299709) % 100 < 70 THEN 'medium' WHEN (i * 1299709) % 100 < 95 THEN 'large' ELSE 'xlarge' END,
         CASE WHEN (i * 15485863) % 4 > 0 THEN
           ARRAY(SELECT (ARRAY[${sqlTexts(TAGS)}])[(1 + (${TAGS.length - 1} - floor(sqrt((i * 7727) % 400))::int + k * 7) % ${TAGS.length})::int]
                   FROM generate_series(0, (i * 15485863) % 4 - 1) AS k ORDER BY k)
         END,
         CASE WHEN (i * 19) % 10 < 6 THEN ARRAY['https://photos.example.com/pets/' || i || '/1.jpg'] END,
         CASE WHEN (i * 23) % 100 < 85 THEN
           (ARRAY[${CITIES.map(([latitude]) => latitude).join(', ')}]::float8[])[(1 + (i * 613) % ${CITIES.length})::int]
             + ((i * 37) % 1999 - 999)::float8 / 10000
         END,
         CASE WHEN (i * 23) % 100 < 85 THEN
           (ARRAY[${CITIES.map(([, longitude]) => longitude).join(', ')}]::float8[])[(1 + (i * 613) % ${CITIES.length})::int]
             + ((i * 41) % 2003 - 1001)::float8 / 10000
         END,
         ${flagSql(67, 70, 90)}, ${flagSql(61, 60, 90)}, ${flagSql(71, 5, 80)},
         ${flagSql(43, 60, 80)}, ${flagSql(47, 50, 80)}, ${flagSql(59, 40, 70)},
         CASE WHEN (i * 73) % 10 < 8 THEN ${pickSql(COATS, 79)} END,
         CASE WHEN (i * 83) % 10 < 7 THEN
           ARRAY[(ARRAY[${sqlTexts(COLORS)}])[(1 + (i * 89) % ${COLORS.length})::int]]
             || CASE WHEN (i * 97) % 2 = 0
                  THEN ARRAY[(ARRAY[${sqlTexts(COLORS)}])[(1 + ((i * 89) % ${COLORS.length} + 5) % ${COLORS.length})::int]]
                  ELSE ARRAY[]::text[] END
         END,
         CASE WHEN (i * 29) % 10 < 8 THEN 'org_bench' || (1 + (i * 7907) % ${SEEDED_ORGANIZATIONS}) END
    FROM generate_series(1, $1::bigint) AS i,
         LATERAL (SELECT timestamptz '2024-01-01T00:00:00Z' + i * ${CREATED_EVERY_S} * interval '1 second') AS t (created)`;

/**
 * The seeded organisations, each run by an account of its own and placed near one of the cities, before
 * the pets that name them: `org_bench<n>`, `Shelter <n>`.
 */
export const SEED_ORGANIZATIONS = `
  WITH owners AS (
    INSERT INTO accounts (email) SELECT 'shelter-' || n || '@bench.example' FROM generate_series(1, ${SEEDED_ORGANIZATIONS}) AS n
    RETURNING id, split_part(split_part(email, '@', 1), '-', 2)::int AS n
  )
  INSERT INTO organizations (id, account_id, name, description, address, latitude, longitude)
  SELECT 'org_bench' || n, id, 'Shelter ' || n, 'A rescue of City ' || (n % 500) || '.',
         jsonb_build_object('line1', 'Street ' || n, 'city', 'City ' || (n % 500), 'country', 'DE'),
         (ARRAY[${CITIES.map(([latitude]) => latitude).join(', ')}]::float8[])[(1 + (n * 613) % ${CITIES.length})::int]
           + ((n * 37) % 1999 - 999)::float8 / 1000,
         (ARRAY[${CITIES.map(([, longitude]) => longitude).join(', ')}]::float8[])[(1 + (n * 613) % ${CITIES.length})::int]
           + ((n * 41) % 2003 - 1001)::float8 / 1000
    FROM owners`;
