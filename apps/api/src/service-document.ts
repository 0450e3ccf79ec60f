import { ACCOUNTS_API_TAG, KEYS_API_TAG } from '@app/accounts';
import { APPLICATIONS_API_TAG } from '@app/applications';
import { EMAIL_API_TAG } from '@app/email';
import { EVENTS_API_TAG, WEBHOOKS_API_TAG } from '@app/events';
import { createOpenApiDocument, type PublicAddresses } from '@app/http';
import { STORE_API_TAG } from '@app/orders';
import { ORGANIZATIONS_API_TAG } from '@app/organizations';
import { PETS_API_TAG } from '@app/pets';
import { SAVED_SEARCHES_API_TAG } from '@app/saved-searches';
import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/** The tags of the api's operations, in the order the document lists them. */
const API_TAGS = [
  PETS_API_TAG,
  ORGANIZATIONS_API_TAG,
  SAVED_SEARCHES_API_TAG,
  STORE_API_TAG,
  APPLICATIONS_API_TAG,
  ACCOUNTS_API_TAG,
  KEYS_API_TAG,
  EVENTS_API_TAG,
  WEBHOOKS_API_TAG,
  EMAIL_API_TAG,
];

/**
 * The api's OpenAPI document: its operations, relative to its `/v1` base addresses. The message
 * operations have their own base address, so their own document, served by the messages app.
 */
export function apiDocument(api: INestApplication, addresses: PublicAddresses): OpenAPIObject {
  return createOpenApiDocument(api, {
    title: 'Pet Adoption Service',
    description:
      'Animals up for adoption, saved searches that alert when one is listed, adoption orders, accounts and API keys, the account’s events and the webhook ' +
      'endpoints they are sent to. Every operation except sign-up takes an API key as a bearer token; every error has the body `{code, message, status}`. The message-sending operation has its ' +
      `own base address and document: ${addresses.PUBLIC_MESSAGES_URL}/docs.`,
    servers: [
      { url: addresses.PUBLIC_BASE_URL_PRODUCTION, description: 'Production' },
      { url: addresses.PUBLIC_BASE_URL_STAGING, description: 'Staging' },
    ],
    tags: API_TAGS,
  });
}
