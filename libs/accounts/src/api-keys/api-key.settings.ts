import { IntegerSetting } from '@app/core';
import { IsInt, Min } from 'class-validator';

/** How resolved keys are cached and how often their last use is written. */
export class ApiKeySettings {
  /** How often the last-used time of API keys is written to PostgreSQL. */
  @IntegerSetting()
  @IsInt()
  @Min(100)
  API_KEY_LAST_USED_FLUSH_MS = 5000;

  /** How long a resolved API key is trusted without asking PostgreSQL again (revocation is pushed). */
  @IntegerSetting()
  @IsInt()
  @Min(0)
  API_KEY_CACHE_TTL_MS = 30000;
}
