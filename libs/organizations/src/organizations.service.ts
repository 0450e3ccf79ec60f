import { randomBytes } from 'node:crypto';
import { RACED, retryOnConflict } from '@app/core';
import { Sql } from '@app/database';
import { MergePatch, mergePatchChange, PutPrecondition } from '@app/http';
import { PetsService } from '@app/pets';
import { Injectable } from '@nestjs/common';
import { OrganizationProfileDto, UpdateOrganizationDto } from './dto/organization.dto';
import {
  NoOrganizationError,
  OrganizationNotFoundError,
  OrganizationPreconditionFailedError,
} from './organizations.errors';
import {
  OrganizationPage,
  OrganizationSearch,
  OrganizationsRepository,
  StoredOrganization,
} from './organizations.repository';

/** A change that lost a race with another change of the profile is tried again this many times. */
const CHANGE_ATTEMPTS = 5;

/** An opaque id, unrelated to the account's: `org_` and 20 hexadecimal digits. */
function newOrganizationId(): string {
  return `org_${randomBytes(10).toString('hex')}`;
}

/**
 * Organisations' rules. Publishing one, or removing it, changes each of the account's pets
 * (`organizationId`), in the same transaction (PetsService.setOrganization); any other change of the
 * profile changes no pet.
 */
@Injectable()
export class OrganizationsService {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly pets: PetsService,
    private readonly sql: Sql,
  ) {}

  async getOwn(accountId: number): Promise<StoredOrganization> {
    const own = await this.organizations.findOwn(accountId);
    if (!own) throw new NoOrganizationError();
    return own;
  }

  async get(organizationId: string): Promise<StoredOrganization> {
    const found = await this.organizations.findById(organizationId);
    if (!found) throw new OrganizationNotFoundError(organizationId);
    return found;
  }

  search(search: OrganizationSearch): Promise<OrganizationPage> {
    return this.organizations.search(search);
  }

  /**
   * Publishes the account's profile (`created`) or replaces it whole. With If-Match it only replaces a
   * profile at one of `versions` (any, for `*`), and publishes none: there is none to match before.
   */
  async put(
    accountId: number,
    profile: OrganizationProfileDto,
    { versions, mayCreate }: PutPrecondition,
  ): Promise<{ stored: StoredOrganization; created: boolean }> {
    const publishOrReplace = async () => {
      const created = await this.sql.transaction(async () => {
        const id = newOrganizationId();
        if (mayCreate && (await this.organizations.insert(accountId, id, profile))) {
          await this.pets.setOrganization(accountId, id);
          return true;
        }
        if (await this.organizations.replace(accountId, profile, versions)) return false;
        if (!mayCreate) throw new OrganizationPreconditionFailedError();
        // Removed between the INSERT and the UPDATE: publish it again.
        return RACED;
      });
      return created === RACED ? RACED : { stored: await this.getOwn(accountId), created };
    };
    return retryOnConflict(CHANGE_ATTEMPTS, publishOrReplace, () => new OrganizationPreconditionFailedError());
  }

  /**
   * Applies a merge patch (RFC 7396) to the account's profile: `null` clears a field, and a nested object
   * (`address`, `hours`, `socialMedia`) merges member by member into the profile as read, then is validated
   * whole. The result replaces the profile only while it is still at that version.
   */
  async update(accountId: number, patch: MergePatch, versions: string[] | undefined): Promise<StoredOrganization> {
    const replaceOver = async () => {
      const current = await this.getOwn(accountId);
      if (versions && !versions.includes(current.version)) throw new OrganizationPreconditionFailedError();
      const profile = merged(current, await mergePatchChange(UpdateOrganizationDto, patch, current.organization));
      if (await this.organizations.replace(accountId, profile, [current.version])) return this.getOwn(accountId);
      // Another change came first: apply this one over it, unless If-Match named the version it replaced.
      if (versions) throw new OrganizationPreconditionFailedError();
      return RACED;
    };
    return retryOnConflict(CHANGE_ATTEMPTS, replaceOver, () => new OrganizationPreconditionFailedError());
  }

  /** Unpublishes the account's organisation: its pets lose `organizationId` in the same transaction. */
  async delete(accountId: number, versions: string[] | undefined): Promise<void> {
    await this.sql.transaction(async () => {
      const own = await this.organizations.lockOwn(accountId);
      if (!own) throw new NoOrganizationError();
      if (versions && !versions.includes(own.version)) throw new OrganizationPreconditionFailedError();
      await this.pets.setOrganization(accountId, null);
      await this.organizations.delete(own.id);
    });
  }

  /** Deletes a deleted account's organisation, if it has one, as `delete` does. */
  async erase(accountId: number): Promise<void> {
    await this.sql.transaction(async () => {
      const own = await this.organizations.lockOwn(accountId);
      if (!own) return;
      await this.pets.setOrganization(accountId, null);
      await this.organizations.delete(own.id);
    });
  }
}

/** The fields of a profile: what a change may set or clear. */
const PROFILE_FIELDS = [
  'name',
  'description',
  'email',
  'phone',
  'website',
  'adoptionPolicy',
  'adoptionUrl',
  'address',
  'location',
  'hours',
  'socialMedia',
] as const satisfies ReadonlyArray<keyof OrganizationProfileDto>;

/** The profile after the change: a field absent stays, `null` clears it, any other value replaces it. */
export function merged({ organization }: StoredOrganization, change: UpdateOrganizationDto): OrganizationProfileDto {
  const profile: OrganizationProfileDto = { name: organization.name };
  for (const field of PROFILE_FIELDS) {
    const value = change[field] === undefined ? organization[field] : change[field];
    if (value !== null && value !== undefined) Object.assign(profile, { [field]: value });
  }
  return profile;
}
