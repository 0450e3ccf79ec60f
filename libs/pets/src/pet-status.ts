export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

export const PET_SEXES = ['male', 'female', 'unknown'] as const;
export type PetSex = (typeof PET_SEXES)[number];

export const PET_AGE_GROUPS = ['baby', 'young', 'adult', 'senior'] as const;
export type PetAgeGroup = (typeof PET_AGE_GROUPS)[number];

export const PET_SIZES = ['small', 'medium', 'large', 'xlarge'] as const;
export type PetSize = (typeof PET_SIZES)[number];

export const PET_COATS = ['hairless', 'short', 'medium', 'long', 'wire', 'curly'] as const;
export type PetCoat = (typeof PET_COATS)[number];

/** What `goodWith` names: the members of a pet's `environment`. */
export const PET_COMPANIONS = ['children', 'dogs', 'cats'] as const;
export type PetCompanion = (typeof PET_COMPANIONS)[number];
