import { ContinuousPoller } from '@app/core';
import { Sql } from '@app/database';
import { EventsRecorder, PetChangeFeed } from '@app/events';
import type { PetDto } from '@app/pets';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { SavedSearchMatchDto } from '../dto/saved-search.dto';
import { petTerms } from '../saved-search-filters';
import { SavedSearchesSettings } from '../saved-searches.settings';
import {
  JudgedChange,
  MATCHER_PARTITIONS,
  PetState,
  SavedSearchMatchingRepository,
} from './saved-search-matching.repository';

/**
 * Pet changes matched per transaction. A pet near a city matches hundreds of broad searches (a category
 * within 50 km), so a batch of 1,000 changes wrote hundreds of thousands of matches and alerts in one
 * transaction, past the statement timeout on a loaded machine; 200 keeps each statement to seconds.
 */
const MATCH_BATCH = 200;

/**
 * The saved searches' matcher, every `SAVED_SEARCH_MATCH_INTERVAL_MS` in every worker (one batch of each of
 * the MATCHER_PARTITIONS of the pets at a time across them). In one transaction, a batch claims its pets'
 * events not yet matched (the outbox's second reader beside the dispatcher), keeps each pet as its last
 * change left it, and finds and records the alerts with one statement (SavedSearchMatchingRepository's
 * `recordAlerts`: the searches filed under one of each pet's terms, evaluated against the pet after the change
 * and before it), a `saved_search.matched` event for the owner of each search a pet came to match: a narrow
 * row naming the change for an owner with no subscribed endpoint, and with one more INSERT an event the
 * dispatcher delivers for the others. A worker killed mid-batch rolls all of it back, claims and states
 * included, and the next batch does it again: each transition alerts exactly once.
 */
@Injectable()
export class SavedSearchMatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SavedSearchMatcher.name);
  private readonly task = new ContinuousPoller('saved-search matching', this.logger, () => this.matchAll());

  constructor(
    private readonly sql: Sql,
    private readonly events: PetChangeFeed,
    private readonly recorder: EventsRecorder,
    private readonly matching: SavedSearchMatchingRepository,
    private readonly settings: SavedSearchesSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.settings.SAVED_SEARCH_MATCH_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  /**
   * Matches each partition's batches, the partitions side by side, until a batch is not full. A partition
   * that fails waits for the others, so that a run never outlives its task's stop.
   */
  async matchAll(): Promise<void> {
    const runs = await Promise.allSettled(
      Array.from({ length: MATCHER_PARTITIONS }, async (_, partition) => {
        let changes: number;
        do changes = await this.matchBatch(partition);
        while (changes === MATCH_BATCH && !this.task.stopped);
      }),
    );
    const failed = runs.find((run) => run.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** One batch of a partition: how many changes it matched. */
  private matchBatch(partition: number): Promise<number> {
    return this.sql.transaction(() => this.matchClaimed(partition));
  }

  private async matchClaimed(partition: number): Promise<number> {
    if (!(await this.matching.lockPartition(partition))) return 0;
    const changes = await this.events.claimUnmatchedPetEvents(MATCH_BATCH, partition, MATCHER_PARTITIONS);
    if (changes.length === 0) return 0;
    const petIds = [...new Set(changes.map((change) => Number(change.pet.id)))];
    // Each pet as the matcher saw it last, then as each of the batch's changes leaves it, in their order.
    const seen = new Map<number, PetState | undefined>(
      [...(await this.matching.states(petIds))].map(([id, pet]) => [id, { pet, terms: petTerms(pet) }]),
    );
    const judged: JudgedChange[] = [];
    changes.forEach((change, index) => {
      const petId = Number(change.pet.id);
      const before = seen.get(petId);
      if (change.type === 'pet.deleted') {
        seen.set(petId, undefined);
        return;
      }
      const pet = change.pet as unknown as PetDto;
      const after = { pet, terms: petTerms(pet) };
      judged.push({
        change: index,
        changeId: change.id,
        listerAccountId: change.listerAccountId,
        changedAt: pet.updatedAt,
        after,
        before,
      });
      seen.set(petId, after);
    });
    await this.matching.keepStates(
      [...seen.values()].flatMap((state) => (state ? [state.pet] : [])),
      [...seen].flatMap(([petId, state]) => (state ? [] : [petId])),
    );
    const delivered = await this.matching.recordAlerts(judged);
    // Each alert to deliver carries its change's pet: sent once per change, however many searches it alerts.
    await this.recorder.recordSharing(
      'saved_search.matched',
      changes.map((change) => ({ pet: change.pet })),
      delivered.map((alert) => ({
        recipientAccountId: alert.accountId,
        shared: alert.change,
        own: { savedSearchId: alert.savedSearchId } satisfies Omit<SavedSearchMatchDto, 'pet'>,
      })),
    );
    return changes.length;
  }
}
