// Written by `npm run db:types` from a database migrated with libs/database/src/migrations: do not edit.
// One interface per table, its columns typed as pg returns them; a library's row types are picked from them.

import type { ColumnType } from 'kysely';

export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U> ? ColumnType<S, I | undefined, U> : ColumnType<T, T | undefined, T>;

export type Int8 = ColumnType<string, bigint | number | string, bigint | number | string>;

export type Json = JsonValue;

export type JsonArray = JsonValue[];

export type JsonObject = {
  [x: string]: JsonValue | undefined;
};

export type JsonPrimitive = boolean | number | string | null;

export type JsonValue = JsonArray | JsonObject | JsonPrimitive;

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface Accounts {
  created_at: Generated<Timestamp>;
  custom_per_day: number | null;
  custom_per_minute: number | null;
  deleted_at: Timestamp | null;
  email: string | null;
  email_canonical: string | null;
  erased_at: Timestamp | null;
  id: Generated<Int8>;
  plan: Generated<string>;
}

export interface ApiKeys {
  account_id: Int8;
  allowed_origins: string[] | null;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp | null;
  id: Generated<Int8>;
  key_hash: Buffer;
  kind: Generated<string>;
  last_used_at: Timestamp | null;
  name: string;
  prefix: string;
  publishable_key: string | null;
  revoked_at: Timestamp | null;
  scopes: Generated<string[]>;
}

export interface ApplicationForms {
  account_id: Int8;
  fields: Json;
  notify_email: string | null;
  updated_at: Generated<Timestamp>;
  version: number;
}

export interface ApplicationMessages {
  application_id: string;
  body: string | null;
  created_at: Generated<Timestamp>;
  id: string;
  sender: string;
  seq: Generated<Int8>;
}

export interface Applications {
  answers: Json;
  applicant_account_id: Int8;
  closed_reason: string | null;
  contact: Json | null;
  contact_email_canonical: string | null;
  created_at: Generated<Timestamp>;
  email_consent: Generated<boolean>;
  ended_at: Timestamp | null;
  form_version: number;
  history: Json;
  id: string;
  lister_account_id: Int8;
  order_id: Int8 | null;
  pet_id: Int8;
  seq: Generated<Int8>;
  status: Generated<string>;
  updated_at: Generated<Timestamp>;
}

export interface Categories {
  id: Int8;
  name: string;
}

export interface EmailNotifications {
  account_id: Int8 | null;
  address: string;
  address_key: string;
  attempts: Generated<number>;
  created_at: Generated<Timestamp>;
  data: Json;
  finished_at: Timestamp | null;
  id: string;
  last_error: string | null;
  list: string;
  next_attempt_at: Generated<Timestamp>;
  status: Generated<string>;
  template: string;
}

export interface EmailSuppressions {
  address_key: string;
  created_at: Generated<Timestamp>;
  reason: string;
}

export interface EmailUnsubscribes {
  address_key: string;
  created_at: Generated<Timestamp>;
  list: string;
}

export interface Events {
  account_id: Int8;
  created_at: Generated<Timestamp>;
  dispatched_at: Timestamp | null;
  id: string;
  matched_at: Timestamp | null;
  object: Json;
  seq: Generated<Int8>;
  type: string;
}

export interface IdempotencyKeys {
  account_id: Int8;
  created_at: Generated<Timestamp>;
  fingerprint: Buffer;
  key: string;
  locked_until: Timestamp | null;
  response_body: Json | null;
  response_etag: string | null;
  response_location: string | null;
  response_status: number | null;
}

export interface Meetings {
  application_id: string;
  created_at: Generated<Timestamp>;
  ends_at: Timestamp;
  id: string;
  location: string | null;
  reminded_at: Timestamp | null;
  starts_at: Timestamp;
  status: Generated<string>;
  updated_at: Generated<Timestamp>;
}

export interface Messages {
  account_id: Int8;
  attempts: Generated<number>;
  created_at: Generated<Timestamp>;
  enqueued_at: Timestamp | null;
  failed_at: Timestamp | null;
  id: string;
  last_error: string | null;
  message: string;
  sending_at: Timestamp | null;
  sent_at: Timestamp | null;
  seq: Generated<Int8>;
  status: Generated<string>;
}

export interface Orders {
  adopter_account_id: Int8;
  cancellation_reason: string | null;
  created_at: Generated<Timestamp>;
  expires_at: Timestamp | null;
  id: Generated<Int8>;
  lister_account_id: Int8;
  note: string | null;
  pet_id: Int8;
  placed_by_application: Generated<boolean>;
  return_reason: string | null;
  status: Generated<string>;
  updated_at: Generated<Timestamp>;
}

export interface OrganizationAnimalCounts {
  available: Generated<Int8>;
  organization_id: string;
  pending: Generated<Int8>;
  sold: Generated<Int8>;
}

export interface Organizations {
  account_id: Int8;
  address: Json | null;
  adoption_policy: string | null;
  adoption_url: string | null;
  created_at: Generated<Timestamp>;
  description: string | null;
  email: string | null;
  hours: Json | null;
  id: string;
  latitude: number | null;
  longitude: number | null;
  name: string;
  phone: string | null;
  place: string | null;
  social_media: Json | null;
  updated_at: Generated<Timestamp>;
  website: string | null;
}

export interface PetChangeClock {
  changed_at: Timestamp;
  id: Generated<boolean>;
}

export interface Pets {
  age_group: string | null;
  breed: string | null;
  category_id: Int8;
  coat: string | null;
  colors: string[] | null;
  colors_lowered: string[] | null;
  created_at: Generated<Timestamp>;
  declawed: boolean | null;
  description: string | null;
  external_id: string | null;
  good_with_cats: boolean | null;
  good_with_children: boolean | null;
  good_with_dogs: boolean | null;
  house_trained: boolean | null;
  id: Generated<Int8>;
  latitude: number | null;
  lister_account_id: Int8 | null;
  longitude: number | null;
  mixed_breed: boolean | null;
  name: string;
  open_order_id: Int8 | null;
  organization_id: string | null;
  photo_urls: string[] | null;
  photos: Generated<Json>;
  search_document: string;
  secondary_breed: string | null;
  sex: Generated<string>;
  shots_current: boolean | null;
  size: string | null;
  spayed_neutered: boolean | null;
  special_needs: boolean | null;
  special_needs_notes: string | null;
  status: Generated<string>;
  tags: string[] | null;
  updated_at: Generated<Timestamp>;
}

export interface PetStatusCounts {
  available: Generated<Int8>;
  pending: Generated<Int8>;
  slot: number;
  sold: Generated<Int8>;
}

export interface PhotoFileRemovals {
  due_at: Generated<Timestamp>;
  key: string;
  photo_id: string;
}

export interface Photos {
  created_at: Generated<Timestamp>;
  error: string | null;
  files: Generated<string[]>;
  height: number | null;
  id: string;
  pet_id: Int8;
  position: number;
  renditions: Json | null;
  status: Generated<string>;
  updated_at: Generated<Timestamp>;
  width: number | null;
}

export interface SavedSearchAlerts {
  account_id: Int8;
  change_id: string;
  created_at: Generated<Timestamp>;
  saved_search_id: string;
  seq: Generated<Int8>;
}

export interface SavedSearchEmailMatches {
  matched_at: Generated<Timestamp>;
  pet_id: Int8;
  pet_name: string;
  saved_search_id: string;
}

export interface SavedSearches {
  account_id: Int8;
  choices: Json | null;
  created_at: Generated<Timestamp>;
  email_alerts: Generated<boolean>;
  emailed_at: Timestamp | null;
  filters: Json;
  id: string;
  name: string | null;
  near_origin: Generated<string | null>;
  near_radius_metres: Generated<number | null>;
  q_query: Generated<string | null>;
  query: string;
  required: string[];
  terms: string[];
}

export interface SavedSearchPetStates {
  pet: Json;
  pet_id: Int8;
}

export interface WebhookAttempts {
  attempt: number;
  created_at: Generated<Timestamp>;
  duration_ms: number | null;
  endpoint_id: Int8;
  error: string | null;
  event_id: string;
  event_type: string;
  id: Generated<Int8>;
  manual: Generated<boolean>;
  response_status: number | null;
  status: Generated<string>;
}

export interface WebhookEndpoints {
  account_id: Int8;
  created_at: Generated<Timestamp>;
  description: string | null;
  enabled: Generated<boolean>;
  event_types: string[];
  id: Generated<Int8>;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Timestamp | null;
  secret_ciphertext: string;
  updated_at: Generated<Timestamp>;
  url: string;
}

export interface DB {
  accounts: Accounts;
  api_keys: ApiKeys;
  application_forms: ApplicationForms;
  application_messages: ApplicationMessages;
  applications: Applications;
  categories: Categories;
  email_notifications: EmailNotifications;
  email_suppressions: EmailSuppressions;
  email_unsubscribes: EmailUnsubscribes;
  events: Events;
  idempotency_keys: IdempotencyKeys;
  meetings: Meetings;
  messages: Messages;
  orders: Orders;
  organization_animal_counts: OrganizationAnimalCounts;
  organizations: Organizations;
  pet_change_clock: PetChangeClock;
  pet_status_counts: PetStatusCounts;
  pets: Pets;
  photo_file_removals: PhotoFileRemovals;
  photos: Photos;
  saved_search_alerts: SavedSearchAlerts;
  saved_search_email_matches: SavedSearchEmailMatches;
  saved_search_pet_states: SavedSearchPetStates;
  saved_searches: SavedSearches;
  webhook_attempts: WebhookAttempts;
  webhook_endpoints: WebhookEndpoints;
}
