import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 24;
// The largest multiple of 62 not above 256: bytes from it on are dropped, so every character is equally likely.
const UNBIASED_BELOW = 248;

export const MESSAGE_ID_FORMAT = /^msg_[0-9A-Za-z]{24}$/;

/** `msg_` and 24 base62 characters from the CSPRNG (about 143 bits), so ids never collide. */
export function newMessageId(): string {
  let random = '';
  while (random.length < RANDOM_LENGTH) {
    for (const byte of randomBytes(RANDOM_LENGTH)) {
      if (byte < UNBIASED_BELOW) random += ALPHABET[byte % ALPHABET.length];
    }
  }
  return `msg_${random.slice(0, RANDOM_LENGTH)}`;
}
