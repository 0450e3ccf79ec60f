import { PeriodicJob } from '@app/core';
import { Sql } from '@app/database';
import { DIGEST_MAX_PETS, EmailOutbox } from '@app/email';
import { Injectable } from '@nestjs/common';
import { SavedSearchesSettings } from '../saved-searches.settings';
import { SavedSearchDigestsRepository } from './saved-search-digests.repository';

/** How often the digests due are sent: the first of a search goes within this of its first match. */
const DIGEST_INTERVAL_MS = 10_000;

/** Digests taken per transaction. */
const DIGEST_BATCH = 100;

/**
 * The email digests of saved searches with email alerts (a periodic job: one run per tick across the
 * workers): each search's pets that came to match since its last digest, at most one per
 * `SAVED_SEARCH_EMAIL_MINUTES`, none when nothing matched. The digests are taken and written to the email
 * outbox in one transaction, so a failed run takes none.
 */
@Injectable()
export class SavedSearchDigests extends PeriodicJob {
  readonly name = 'saved-search-digests';
  override readonly runsAtStart = true;

  constructor(
    private readonly sql: Sql,
    private readonly digests: SavedSearchDigestsRepository,
    private readonly emails: EmailOutbox,
    private readonly settings: SavedSearchesSettings,
  ) {
    super();
  }

  everyMs(): number {
    return DIGEST_INTERVAL_MS;
  }

  async run(): Promise<void> {
    let sent: number;
    do sent = await this.sql.transaction(() => this.sendBatch());
    while (sent === DIGEST_BATCH && !this.stopped);
  }

  private async sendBatch(): Promise<number> {
    const due = await this.digests.takeDue(DIGEST_BATCH, this.settings.SAVED_SEARCH_EMAIL_MINUTES);
    await this.emails.enqueue(
      due.map((digest) => ({
        to: digest.email,
        list: { kind: 'saved_search' as const, id: digest.savedSearchId },
        template: 'saved_search_digest' as const,
        data: {
          savedSearchId: digest.savedSearchId,
          searchName: digest.name,
          query: digest.query,
          pets: digest.pets.slice(0, DIGEST_MAX_PETS),
          more: Math.max(0, digest.pets.length - DIGEST_MAX_PETS),
        },
      })),
    );
    return due.length;
  }
}
