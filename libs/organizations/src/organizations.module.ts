import { PetsModule } from '@app/pets';
import { Module } from '@nestjs/common';
import { OrganizationsPersonalData } from './organizations-personal-data.part';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

/** Organisations without HTTP: the api's, and the worker's for the erasure of accounts. */
@Module({
  imports: [PetsModule],
  providers: [OrganizationsRepository, OrganizationsService, OrganizationsPersonalData],
  exports: [OrganizationsService],
})
export class OrganizationsModule {}

/** `/v1/organization` and `/v1/organizations`. */
@Module({ imports: [OrganizationsModule], controllers: [OrganizationsController] })
export class OrganizationsHttpModule {}
