import { CrossFieldRules, IntegerSetting } from '@app/core';
import { IsInt, IsString, Max, Min } from 'class-validator';

/** How the HTTP apps listen and serve: ports, proxies, time and connection limits, CORS. */
export class HttpSettings implements CrossFieldRules {
  @IntegerSetting()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IntegerSetting()
  @IsInt()
  @Min(0)
  @Max(65535)
  MESSAGES_PORT = 3001;

  /** Express `trust proxy` setting: `false`, `true`, a hop count, or a list of addresses/subnets. */
  @IsString()
  TRUST_PROXY = 'false';

  /** How long a client may take to send its request headers, then its whole request (not less). */
  @IntegerSetting()
  @IsInt()
  @Min(1000)
  HEADERS_TIMEOUT_MS = 10000;

  @IntegerSetting()
  @IsInt()
  @Min(1000)
  REQUEST_TIMEOUT_MS = 30000;

  /** A connection that sends and receives nothing for this long is closed, unless an answer is pending. */
  @IntegerSetting()
  @IsInt()
  @Min(1000)
  IDLE_TIMEOUT_MS = 10000;

  /**
   * Connections one client address may hold open at once; the excess is answered 429 and closed.
   * Counted per TCP peer, so behind a proxy it bounds the proxy's connections. 0 disables it.
   */
  @IntegerSetting()
  @IsInt()
  @Min(0)
  MAX_CONNECTIONS_PER_CLIENT = 100;

  /** Comma-separated allowed CORS origins; empty disables CORS. */
  @IsString()
  CORS_ORIGINS = '';

  violations(): string[] {
    return this.REQUEST_TIMEOUT_MS < this.HEADERS_TIMEOUT_MS
      ? [`REQUEST_TIMEOUT_MS=${this.REQUEST_TIMEOUT_MS}: must not be less than HEADERS_TIMEOUT_MS`]
      : [];
  }
}
