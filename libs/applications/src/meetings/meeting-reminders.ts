import { PeriodicJob } from '@app/core';
import { Sql } from '@app/database';
import { Injectable, Logger } from '@nestjs/common';
import { ApplicationNotifications } from '../application-notifications';
import { ApplicationsJobsSettings } from '../applications-jobs.settings';
import { MeetingsRepository } from './meetings.repository';

/** An accepted meeting's reminder goes this long before it starts, or at once when it is accepted later. */
const REMINDER_LEAD_HOURS = 24;
const BATCH = 100;

/**
 * Sends `meeting.reminder` to both parties of each accepted meeting that starts within 24 hours, every
 * `MEETINGS_REMINDER_INTERVAL_MS` (a periodic job: one run per tick across the workers, and one at each
 * worker's start for the reminders that fell due while none ran). Each batch claims its meetings and
 * records their events in one transaction: a worker killed before it commits leaves them for the next run,
 * and a reminder once committed is never claimed again.
 */
@Injectable()
export class MeetingReminders extends PeriodicJob {
  readonly name = 'meetings-reminders';
  override readonly runsAtStart = true;
  private readonly logger = new Logger(MeetingReminders.name);

  constructor(
    private readonly sql: Sql,
    private readonly meetings: MeetingsRepository,
    private readonly notifications: ApplicationNotifications,
    private readonly settings: ApplicationsJobsSettings,
  ) {
    super();
  }

  everyMs(): number {
    return this.settings.MEETINGS_REMINDER_INTERVAL_MS;
  }

  async run(): Promise<void> {
    let sent: number;
    do {
      sent = await this.sql.transaction(async () => {
        const due = await this.meetings.claimDueReminders(REMINDER_LEAD_HOURS, BATCH);
        await this.notifications.meetingReminders(due);
        return due.length;
      });
      if (sent > 0) this.logger.log(`sent the reminders of ${sent} meetings`);
    } while (sent === BATCH && !this.stopped);
  }
}
