import { layout, type RenderedEmail } from './layout';

/** The most pets one digest lists; it gives the number of the others. */
export const DIGEST_MAX_PETS = 20;

/** A saved search's digest: the pets that came to match it since the one before. */
export interface SavedSearchDigestData {
  savedSearchId: string;
  searchName: string | null;
  query: string;
  /** Up to DIGEST_MAX_PETS of them, oldest match first. */
  pets: ReadonlyArray<{ id: number; name: string }>;
  /** How many more came to match. */
  more: number;
}

export function savedSearchDigest(data: SavedSearchDigestData, unsubscribeUrl: string): RenderedEmail {
  const search = data.searchName ?? data.query;
  const count = data.pets.length + data.more;
  const animals = count === 1 ? 'animal matches' : 'animals match';
  return layout({
    subject: `${count} new ${animals} “${search}”`,
    heading: `New ${count === 1 ? 'animal' : 'animals'} for your saved search`,
    blocks: [
      { paragraph: `${count} ${animals} your saved search “${search}”:` },
      { items: data.pets.map((pet) => `${pet.name} (pet ${pet.id})`) },
      ...(data.more > 0 ? [{ paragraph: `and ${data.more} more.` }] : []),
    ],
    why: 'You receive this email because your saved search has email alerts turned on.',
    unsubscribeUrl,
  });
}
