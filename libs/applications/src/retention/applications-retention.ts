import { PeriodicJob } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { ApplicationsJobsSettings } from '../applications-jobs.settings';
import { ApplicationsRepository } from '../applications.repository';

/** Applications erased per statement: short transactions that hold few locks. */
const BATCH = 500;

/**
 * Erases the contact, answers and messages' bodies of applications declined, withdrawn or closed more than
 * `APPLICATIONS_RETENTION_DAYS` ago, every `APPLICATIONS_RETENTION_INTERVAL_MS` (a periodic job: one run per
 * tick across the workers), in batches. Their states and history stay.
 */
@Injectable()
export class ApplicationsRetention extends PeriodicJob {
  readonly name = 'applications-retention';
  private readonly logger = new Logger(ApplicationsRetention.name);

  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly settings: ApplicationsJobsSettings,
  ) {
    super();
  }

  everyMs(): number {
    return this.settings.APPLICATIONS_RETENTION_INTERVAL_MS;
  }

  async run(): Promise<void> {
    let ids: string[];
    let total = 0;
    do {
      ids = await this.applications.findPastRetention(this.settings.APPLICATIONS_RETENTION_DAYS, BATCH);
      await this.applications.erasePersonalData(ids);
      total += ids.length;
    } while (ids.length === BATCH && !this.stopped);
    if (total > 0) this.logger.log(`erased the personal data of ${total} applications past retention`);
  }
}
