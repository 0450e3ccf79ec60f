import { IntegerSetting } from '@app/core';
import { IsInt, Min } from 'class-validator';

/** The applications' settings, read from the environment by `settingsModule(ApplicationsSettings)`. */
export class ApplicationsSettings {
  /** How many open applications one contact email (one person, whatever the account) may have at once. */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  APPLICATIONS_MAX_OPEN_PER_APPLICANT = 5;
}
