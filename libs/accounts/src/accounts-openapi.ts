import type { ApiTag, ErrorDescriptions } from '@app/http';
import { IDEMPOTENCY_ERRORS } from '@app/idempotency';

export const ACCOUNTS_API_TAG: ApiTag = { name: 'accounts', description: 'Sign-up and the caller’s account.' };
export const KEYS_API_TAG: ApiTag = { name: 'keys', description: 'The caller’s API keys.' };

/** Sign-up's 409 (`email_taken`), in the conflict wording it shares with idempotent operations. */
export const SIGN_UP_ERRORS: ErrorDescriptions = { 409: IDEMPOTENCY_ERRORS[409] };
