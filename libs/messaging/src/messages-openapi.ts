import { createOpenApiDocument, type ApiTag, type PublicAddresses } from '@app/http';
import type { INestApplication } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

export const MESSAGES_API_TAG: ApiTag = {
  name: 'messages',
  description: 'Sending messages and following their delivery.',
};

/**
 * The messages app's document: its operations, relative to its own base addresses. No operation names
 * servers of its own: a tool told another base address (a test run, a proxy) would still send it there.
 */
export function messagesDocument(app: INestApplication, addresses: PublicAddresses): OpenAPIObject {
  return createOpenApiDocument(app, {
    title: 'Pet Adoption Service: messages',
    description:
      'The message-sending operation of the Pet Adoption Service, on its own base address. It takes the ' +
      'same API keys as the catalogue; every error has the body `{code, message, status}`.',
    servers: [
      { url: addresses.PUBLIC_MESSAGES_URL, description: 'Production' },
      { url: addresses.PUBLIC_MESSAGES_URL_STAGING, description: 'Staging' },
    ],
    tags: [MESSAGES_API_TAG],
  });
}
