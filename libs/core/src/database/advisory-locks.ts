/**
 * Keys of the PostgreSQL advisory locks that every process shares, kept in one place so that no two
 * uses pick the same arbitrary number.
 */
export const ADVISORY_LOCKS = {
  /** Serialises migrations when several processes start at once. */
  migrations: 7_310_442_001,
  // 7_310_442_002 is PET_IDS_LOCK, beside the pets repository that takes it.
  /**
   * Held by each message INSERT around its `seq`: in every process, the keys then become visible in
   * the order they were drawn, so a reader that has paged past one never finds a smaller one committed later.
   */
  messageSeqs: 7_310_442_003,
} as const;
