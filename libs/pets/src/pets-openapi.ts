import type { ApiTag } from '@app/http';

export const PETS_API_TAG: ApiTag = { name: 'pets', description: 'Animals up for adoption and their categories.' };
