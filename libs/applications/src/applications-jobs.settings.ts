import { IntegerSetting } from '@app/core';
import { IsInt, Max, Min } from 'class-validator';

/** The settings of the applications' periodic jobs in the worker, read by `settingsModule(ApplicationsJobsSettings)`. */
export class ApplicationsJobsSettings {
  /** How often a worker sends the meetings' due reminders: well under a minute, so each is sent within one. */
  @IntegerSetting()
  @IsInt()
  @Min(100)
  @Max(30_000)
  MEETINGS_REMINDER_INTERVAL_MS = 10_000;

  /** Days after an application became declined, withdrawn or closed before its personal data is erased. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  APPLICATIONS_RETENTION_DAYS = 365;

  /** How often a worker erases the applications past their retention. */
  @IntegerSetting()
  @IsInt()
  @Min(1000)
  APPLICATIONS_RETENTION_INTERVAL_MS = 3_600_000;
}
