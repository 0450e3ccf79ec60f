import { PetsModule } from '@app/pets';
import { Module } from '@nestjs/common';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

/** Organisations without HTTP. */
@Module({
  imports: [PetsModule],
  providers: [OrganizationsRepository, OrganizationsService],
  exports: [OrganizationsService],
})
class OrganizationsModule {}

/** `/v1/organization` and `/v1/organizations`. */
@Module({ imports: [OrganizationsModule], controllers: [OrganizationsController] })
export class OrganizationsHttpModule {}
