import { IntegerSetting } from '@app/core';
import { Transform } from 'class-transformer';
import { IsInt, IsNumber, Max, Min } from 'class-validator';

/** The matcher's settings, read with `settingsModule(SavedSearchesSettings)`. */
export class SavedSearchesSettings {
  /** How often a worker matches the pet changes recorded since its last run against the saved searches. */
  @IntegerSetting()
  @IsInt()
  @Min(10)
  @Max(30_000)
  SAVED_SEARCH_MATCH_INTERVAL_MS = 500;

  /**
   * The least time between two email digests of one search, in minutes (fractions allowed, for trials): a
   * search with email alerts is emailed at most once per this many.
   */
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value,
  )
  @IsNumber({}, { message: 'SAVED_SEARCH_EMAIL_MINUTES must be a number of minutes, such as 60' })
  @Min(0.05)
  @Max(10_080)
  SAVED_SEARCH_EMAIL_MINUTES = 60;
}
