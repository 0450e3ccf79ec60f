import { InitialSchema1763780000000 } from './1763780000000-initial-schema';
import { IdempotencyKeys1795319452718 } from './1795319452718-idempotency-keys';
import { Messages1795320159566 } from './1795320159566-messages';
import { IdempotencyWithoutSecrets1795400000000 } from './1795400000000-idempotency-without-secrets';
import { CanonicalEmails1795400100000 } from './1795400100000-canonical-emails';
import { PetRecord1795500000000 } from './1795500000000-pet-record';
import { PetSearch1795500100000 } from './1795500100000-pet-search';
import { Orders1795600000000 } from './1795600000000-orders';
import { Events1795700000000 } from './1795700000000-events';
import { WebhookAttemptsOnly1795800000000 } from './1795800000000-webhook-attempts-only';
import { IdempotentEntityTags1796200000000 } from './1796200000000-idempotent-entity-tags';
import { WebhookSecretRotation1796300000000 } from './1796300000000-webhook-secret-rotation';
import { Photos1796600000000 } from './1796600000000-photos';
import { KeyScopes1796700000000 } from './1796700000000-key-scopes';
import { SavedSearches1796800000000 } from './1796800000000-saved-searches';
import { Organizations1796500000000 } from './1796500000000-organizations';
import { SavedSearchClauses1797100000000 } from './1797100000000-saved-search-clauses';
import { ColourFilterInlined1797200000000 } from './1797200000000-colour-filter-inlined';
import { OrganizationPlaces1797200100000 } from './1797200100000-organization-places';
import { PetSearchDocument1797300000000 } from './1797300000000-pet-search-document';
import { OrganizationAnimalCounts1797400000000 } from './1797400000000-organization-animal-counts';
import { StoredLoweredColours1797410000000 } from './1797410000000-stored-lowered-colours';
import { OrganizationStoredPlace1797420000000 } from './1797420000000-organization-stored-place';
import { ListerOrganizationLookup1797430000000 } from './1797430000000-lister-organization-lookup';
import { SavedSearchPetStates1797440000000 } from './1797440000000-saved-search-pet-states';
import { SavedSearchStoredTermsOfQAndNear1797450000000 } from './1797450000000-saved-search-stored-terms-of-q-and-near';
import { SavedSearchAlerts1797460000000 } from './1797460000000-saved-search-alerts';
import { PhotoRenditionKeys1797470000000 } from './1797470000000-photo-rendition-keys';
import { Applications1797510000000 } from './1797510000000-applications';
import { ApplicationsRetentionDue1797515000000 } from './1797515000000-applications-retention-due';
import { Email1797520000000 } from './1797520000000-email';

/** Every migration, in order. A new migration is added here as well as in its own file. */
export const MIGRATIONS = [
  InitialSchema1763780000000,
  IdempotencyKeys1795319452718,
  Messages1795320159566,
  IdempotencyWithoutSecrets1795400000000,
  CanonicalEmails1795400100000,
  PetRecord1795500000000,
  PetSearch1795500100000,
  Orders1795600000000,
  Events1795700000000,
  WebhookAttemptsOnly1795800000000,
  IdempotentEntityTags1796200000000,
  WebhookSecretRotation1796300000000,
  Photos1796600000000,
  KeyScopes1796700000000,
  SavedSearches1796800000000,
  Organizations1796500000000,
  SavedSearchClauses1797100000000,
  ColourFilterInlined1797200000000,
  OrganizationPlaces1797200100000,
  PetSearchDocument1797300000000,
  OrganizationAnimalCounts1797400000000,
  StoredLoweredColours1797410000000,
  OrganizationStoredPlace1797420000000,
  ListerOrganizationLookup1797430000000,
  SavedSearchPetStates1797440000000,
  SavedSearchStoredTermsOfQAndNear1797450000000,
  SavedSearchAlerts1797460000000,
  PhotoRenditionKeys1797470000000,
  Applications1797510000000,
  ApplicationsRetentionDue1797515000000,
  Email1797520000000,
];
