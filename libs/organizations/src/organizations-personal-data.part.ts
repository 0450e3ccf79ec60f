import { PersonalDataPart, PersonalDataSection } from '@app/core';
import { Injectable } from '@nestjs/common';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

/** An account's published organisation; deleted once its pets are gone, none of which names it then. */
@Injectable()
export class OrganizationsPersonalData extends PersonalDataPart {
  readonly name = 'organizations';
  readonly tables = ['organizations'];
  override readonly erasedAfter = ['pets'];
  readonly sections: readonly PersonalDataSection[];

  constructor(
    organizations: OrganizationsRepository,
    private readonly service: OrganizationsService,
  ) {
    super();
    this.sections = [
      {
        name: 'organization',
        single: true,
        async *records(accountId) {
          const own = await organizations.findOwn(accountId);
          if (own) yield own.organization;
        },
      },
    ];
  }

  async erase(accountId: number): Promise<boolean> {
    await this.service.erase(accountId);
    return false;
  }
}
