import { randomBytes } from 'node:crypto';

/** An id of this context: its prefix and 24 base64url characters (144 bits from the CSPRNG), as events' ids. */
export const newId = (prefix: 'app' | 'amsg' | 'mtg') => `${prefix}_${randomBytes(18).toString('base64url')}`;
