import { PeriodicTask } from '@app/core';
import { Sql, sqlState } from '@app/database';
import { EventsRecorder, EventsRepository, NewEvent, PetChangeEvent } from '@app/events';
import { parsePoint, PetDto } from '@app/pets';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { SavedSearchMatchDto } from '../dto/saved-search.dto';
import { needsDatabase, passesFilters, petTerms } from '../saved-search-filters';
import { CandidateSearch, SavedSearchesRepository } from '../saved-searches.repository';
import { SavedSearchesSettings } from '../saved-searches.settings';
import { DatabasePair, Match, SavedSearchMatchesRepository } from './saved-search-matches.repository';

/**
 * Pet changes matched per transaction. A pet near a city matches hundreds of broad searches (a category
 * within 50 km), so a batch of 1,000 changes wrote hundreds of thousands of matches and alerts in one
 * transaction, past the statement timeout on a loaded machine; 200 keeps each statement to seconds.
 */
export const MATCH_BATCH = 200;

const FOREIGN_KEY_VIOLATION = '23503';

/** What one batch did: the bench and the log read these. */
export interface MatchedBatch {
  changes: number;
  /** Saved searches evaluated against the batch's pet states, all together. */
  candidates: number;
  alerts: number;
}

const NOTHING_MATCHED: MatchedBatch = { changes: 0, candidates: 0, alerts: 0 };

/** One pet state of the batch: its change, and the searches that may match it. */
interface PetState {
  change: PetChangeEvent;
  pet: PetDto;
  candidates: CandidateSearch[];
}

const matchKey = (match: Match) => `${match.petId} ${match.savedSearchId}`;

/**
 * The saved searches' matcher, every `SAVED_SEARCH_MATCH_INTERVAL_MS` in every worker (one batch at a time
 * across them, SavedSearchMatchesRepository.lockMatcher). In one transaction, a batch claims the pet events
 * not yet matched (the outbox's second reader beside the dispatcher), finds for each pet state the searches
 * filed under one of its terms, evaluates only those, and compares with the searches the pet matched
 * before: each search it came to match records one `saved_search.matched` event for the search's owner,
 * and the match state changes with those events. A worker killed mid-batch rolls all of it back, claims
 * included, and the next batch does it again: each transition alerts exactly once.
 */
@Injectable()
export class SavedSearchMatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SavedSearchMatcher.name);
  private readonly task = new PeriodicTask('saved-search matching', this.logger, () => this.matchAll());

  constructor(
    private readonly sql: Sql,
    private readonly events: EventsRepository,
    private readonly recorder: EventsRecorder,
    private readonly searches: SavedSearchesRepository,
    private readonly matches: SavedSearchMatchesRepository,
    private readonly settings: SavedSearchesSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.settings.SAVED_SEARCH_MATCH_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  /** Matches batches until one is not full. */
  async matchAll(): Promise<void> {
    let batch: MatchedBatch;
    do batch = await this.matchBatch();
    while (batch.changes === MATCH_BATCH && !this.task.stopped);
  }

  /** One batch; a search removed while it ran makes it start again, without that search. */
  async matchBatch(): Promise<MatchedBatch> {
    for (;;) {
      try {
        return await this.sql.transaction(() => this.matchClaimed());
      } catch (error) {
        if (sqlState(error) !== FOREIGN_KEY_VIOLATION) throw error;
      }
    }
  }

  private async matchClaimed(): Promise<MatchedBatch> {
    if (!(await this.matches.lockMatcher())) return NOTHING_MATCHED;
    const changes = await this.events.claimUnmatchedPetEvents(MATCH_BATCH);
    if (changes.length === 0) return NOTHING_MATCHED;
    const states = await this.candidates(changes.filter((change) => change.type !== 'pet.deleted'));
    const matching = await this.evaluate(states);

    const petIds = [...new Set(changes.map((change) => Number(change.pet.id)))];
    const before = await this.matches.current(petIds);
    const current = new Map<number, Set<string>>();
    for (const { petId, savedSearchId } of before) {
      current.set(petId, (current.get(petId) ?? new Set()).add(savedSearchId));
    }
    // Each pet's states in their order: a pet that stops matching and matches again alerts again.
    const alerts: NewEvent[] = [];
    for (const change of changes) {
      const petId = Number(change.pet.id);
      const now = matching.get(change) ?? new Map<string, CandidateSearch>();
      const was = current.get(petId);
      for (const [id, search] of now) {
        if (was?.has(id)) continue;
        const object: SavedSearchMatchDto = { savedSearchId: id, pet: change.pet as unknown as PetDto };
        alerts.push({ recipientAccountId: search.accountId, type: 'saved_search.matched', object });
      }
      current.set(petId, new Set(now.keys()));
    }

    const after = [...current].flatMap(([petId, ids]) => [...ids].map((savedSearchId) => ({ petId, savedSearchId })));
    const beforeKeys = new Set(before.map(matchKey));
    const afterKeys = new Set(after.map(matchKey));
    await this.matches.apply(
      before.filter((match) => !afterKeys.has(matchKey(match))),
      after.filter((match) => !beforeKeys.has(matchKey(match))),
    );
    await this.recorder.recordAll(alerts);
    const candidates = states.reduce((sum, state) => sum + state.candidates.length, 0);
    return { changes: changes.length, candidates, alerts: alerts.length };
  }

  /**
   * Each pet state with the searches filed under one of its terms (one index lookup for the whole batch),
   * but those of its lister's own account: a search never alerts about its own account's pets.
   */
  private async candidates(changes: PetChangeEvent[]): Promise<PetState[]> {
    const terms = changes.map((change) => petTerms(change.pet as unknown as PetDto));
    const filed = await this.searches.filedUnder([...new Set(terms.flat())]);
    const byTerm = new Map<string, CandidateSearch[]>();
    for (const search of filed) {
      for (const term of search.terms) byTerm.set(term, [...(byTerm.get(term) ?? []), search]);
    }
    return changes.map((change, index) => {
      const found = new Map<string, CandidateSearch>();
      for (const term of terms[index]!) {
        for (const search of byTerm.get(term) ?? []) {
          if (search.accountId !== change.listerAccountId) found.set(search.id, search);
        }
      }
      return { change, pet: change.pet as unknown as PetDto, candidates: [...found.values()] };
    });
  }

  /** The searches each pet state matches: the filters JavaScript decides, then `q` and `near` in one statement. */
  private async evaluate(states: PetState[]): Promise<Map<PetChangeEvent, Map<string, CandidateSearch>>> {
    const pairs: Array<DatabasePair & { search: CandidateSearch }> = [];
    const matching = new Map<PetChangeEvent, Map<string, CandidateSearch>>();
    states.forEach(({ change, pet, candidates }, index) => {
      const passed = new Map<string, CandidateSearch>();
      matching.set(change, passed);
      for (const search of candidates) {
        const { filters } = search;
        if (!passesFilters(pet, filters)) continue;
        if (!needsDatabase(filters)) {
          passed.set(search.id, search);
          continue;
        }
        const near =
          filters.near === undefined ? undefined : { ...parsePoint(filters.near), radiusKm: filters.radiusKm! };
        pairs.push({ pet: index, q: filters.q, near, search });
      }
    });
    const passing = await this.matches.passing(
      states.map((state) => state.pet),
      pairs,
    );
    pairs.forEach((pair, index) => {
      if (passing.has(index)) matching.get(states[pair.pet]!.change)!.set(pair.search.id, pair.search);
    });
    return matching;
  }
}
