import { SetMetadata } from '@nestjs/common';

export const SKIP_RATE_LIMIT = 'pet-adoption:skip-rate-limit';

/**
 * Serves a route (or controller) outside the rate limits, without their headers: health and metrics,
 * which load balancers and monitors poll. It lives in the http library because those controllers do.
 */
export const SkipRateLimit = () => SetMetadata(SKIP_RATE_LIMIT, true);
