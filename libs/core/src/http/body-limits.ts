/** Largest accepted request body (CONTRACT section 5: 413 above it). */
export const MAX_BODY_SIZE = '64kb';
