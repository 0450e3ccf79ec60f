// Preloaded (`node --require`) into the api the `create-pet-no-outbox` scenario measures, and into no
// other process: every event the process would record is dropped, so a pet's batched INSERT commits
// without the outbox's INSERT of its `pet.created` beside it, everything else as in the real api.
// The scenario checks afterwards that its pets have no events.
import 'reflect-metadata';
import { sql } from '@app/database';
import { EventsRecorder } from '@app/events';

EventsRecorder.prototype.recordAll = () => Promise.resolve();
// The events a statement records itself: a CTE that inserts nothing (PostgreSQL runs no plain SELECT nobody reads).
EventsRecorder.prototype.recordedBy = () => sql`SELECT`;
