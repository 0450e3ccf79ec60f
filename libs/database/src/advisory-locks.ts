/**
 * Keys of the PostgreSQL advisory locks this library takes. Every context keeps its own keys beside the
 * repository that takes them, numbered 7_310_442_0NN so that no two uses pick the same one: database 001,
 * pets 002 (PET_IDS_LOCK), messaging 003 (MESSAGE_SEQS_LOCK).
 */
export const ADVISORY_LOCKS = {
  /** Serialises migrations when several processes start at once. */
  migrations: 7_310_442_001,
} as const;
