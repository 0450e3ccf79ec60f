import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 24;
// The largest multiple of 62 not above 256: bytes from it on are dropped, so every character is equally likely.
const UNBIASED_BELOW = 248;
/**
 * CSPRNG bytes drawn 3 KiB at a time, as node:crypto does for `randomUUID`: a call into it costs more
 * than the bytes. Each byte is used once; an id takes 24 of them, or 48 about half the time.
 */
const entropy = Buffer.alloc(RANDOM_LENGTH * 128);
let unused = 0;

export const MESSAGE_ID_FORMAT = /^msg_[0-9A-Za-z]{24}$/;

function drawEntropy(): Buffer {
  if (unused < RANDOM_LENGTH) {
    randomFillSync(entropy);
    unused = entropy.length;
  }
  unused -= RANDOM_LENGTH;
  return entropy.subarray(unused, unused + RANDOM_LENGTH);
}

/** `msg_` and 24 base62 characters from the CSPRNG (about 143 bits), so ids never collide. */
export function newMessageId(): string {
  let random = '';
  while (random.length < RANDOM_LENGTH) {
    for (const byte of drawEntropy()) {
      if (byte < UNBIASED_BELOW) random += ALPHABET[byte % ALPHABET.length];
    }
  }
  return `msg_${random.slice(0, RANDOM_LENGTH)}`;
}
