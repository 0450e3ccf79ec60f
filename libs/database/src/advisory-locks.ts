/**
 * Keys of the PostgreSQL advisory locks this library takes. Every context keeps its own keys beside the
 * repository that takes them, numbered 7_310_442_0NN so that no two uses pick the same one: database 001,
 * messaging 003 (MESSAGE_SEQS_LOCK); 002 was the pets' ids lock, retired (docs/adr/0061-write-order-measured.md).
 */
export const ADVISORY_LOCKS = {
  /** Serialises migrations when several processes start at once. */
  migrations: 7_310_442_001,
} as const;
