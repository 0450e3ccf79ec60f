import { EXPORT_PAGE_ROWS, exportedAs, PersonalDataPart, PersonalDataSection } from '@app/core';
import { Sql } from '@app/database';
import { EventsRecorder } from '@app/events';
import { Injectable, Optional } from '@nestjs/common';
import { petEvents } from './pet-events';
import { PhotoUrls } from './pet-photo-urls';
import { PetRemovalFollower } from './pet-removal-follower';
import { toStoredPet } from './pet-row';
import { PetsPersonalDataRepository } from './pets-personal-data.repository';

/**
 * The pets an account lists, with their photos' URLs. Their erasure removes them as `deletePet` does, each
 * with its `pet.deleted` event and what follows a removal (its open applications closed), after the orders
 * have let them go (an order placed meanwhile holds its pet until the orders' part cancels it too).
 */
@Injectable()
export class PetsPersonalData extends PersonalDataPart {
  readonly name = 'pets';
  readonly tables = ['pets'];
  override readonly erasedAfter = ['orders'];
  readonly sections: readonly PersonalDataSection[];

  constructor(
    private readonly pets: PetsPersonalDataRepository,
    private readonly sql: Sql,
    private readonly events: EventsRecorder,
    photoUrls: PhotoUrls,
    @Optional() private readonly removals?: PetRemovalFollower,
  ) {
    super();
    this.sections = [
      {
        name: 'pets',
        records: (accountId) =>
          exportedAs(pets.listed(accountId, EXPORT_PAGE_ROWS), (row) => photoUrls.servedPet(toStoredPet(row).pet)),
      },
    ];
  }

  erase(accountId: number, batchLimit: number): Promise<boolean> {
    return this.sql.transaction(async () => {
      const removed = await this.pets.deleteListed(accountId, batchLimit);
      await this.events.recordAll(removed.flatMap((pet) => petEvents('pet.deleted', pet)));
      for (const pet of removed) await this.removals?.petRemoved(pet.pet.id);
      return removed.length === batchLimit || (await this.pets.anyListed(accountId));
    });
  }
}
