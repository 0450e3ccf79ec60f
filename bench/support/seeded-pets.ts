/** Status by the last digit of the id. */
const STATUSES = 'available available available available available available available pending pending sold'.split(
  ' ',
);

/** The i-th seeded pet, exactly as `seedPets` (database.ts) writes it (70% available, 20% pending, 10% sold). */
export function seededPet(id: number): { id: number; name: string; categoryId: number; status: string } {
  return { id, name: `Pet ${id}`, categoryId: 1 + (id % 7), status: STATUSES[id % 10]! };
}
