import { IntegerSetting } from '@app/core';
import { IsInt, Max, Min } from 'class-validator';

/** The matcher's settings, read with `settingsModule(SavedSearchesSettings)`. */
export class SavedSearchesSettings {
  /** How often a worker matches the pet changes recorded since its last run against the saved searches. */
  @IntegerSetting()
  @IsInt()
  @Min(10)
  @Max(30_000)
  SAVED_SEARCH_MATCH_INTERVAL_MS = 500;
}
