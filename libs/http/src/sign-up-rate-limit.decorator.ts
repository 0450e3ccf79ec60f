import { SetMetadata } from '@nestjs/common';

export const SIGN_UP_RATE_LIMIT = 'pet-adoption:sign-up-rate-limit';

/**
 * Adds the per-IP sign-up window (`RATE_LIMIT_SIGNUP_PER_HOUR`) to a route. It lives in the http library,
 * not in the rate-limiting library, because that library depends on accounts, whose sign-up route carries it.
 */
export const SignUpRateLimit = () => SetMetadata(SIGN_UP_RATE_LIMIT, true);
