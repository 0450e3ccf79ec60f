import { ACCOUNTS_API_TAG, AccountsModule, KEYS_API_TAG } from '@app/accounts';
import { CoreModule, Environment } from '@app/core';
import { DatabaseModule } from '@app/database';
import { createOpenApiDocument } from '@app/http';
import { IdempotencyModule } from '@app/idempotency';
import { MESSAGES_API_TAG, MessagesHttpModule, withMessagesServer } from '@app/messaging';
import { PETS_API_TAG } from '@app/pets';
import { INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';

/** The message operations and what they depend on: scanned in preview mode, nothing is instantiated. */
@Module({ imports: [CoreModule, DatabaseModule, IdempotencyModule, AccountsModule, MessagesHttpModule] })
class MessagesDocumentModule {}

/** The tags of the operations both apps serve, in the order the document lists them. */
const SERVICE_API_TAGS = [PETS_API_TAG, ACCOUNTS_API_TAG, KEYS_API_TAG, MESSAGES_API_TAG];

/**
 * The one OpenAPI document of the service: the api's operations under the `/v1` servers, and the
 * message operations with their own `servers` entry. Served at /docs and written to openapi.json.
 */
export async function serviceDocument(api: INestApplication, env: Environment): Promise<OpenAPIObject> {
  const document = createOpenApiDocument(api, env, SERVICE_API_TAGS);
  const messagesApp = await NestFactory.create(MessagesDocumentModule, {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    const messages = withMessagesServer(createOpenApiDocument(messagesApp, env, [MESSAGES_API_TAG]), env);
    document.paths = { ...document.paths, ...messages.paths };
    document.components = {
      ...document.components,
      schemas: { ...document.components?.schemas, ...messages.components?.schemas },
    };
    return document;
  } finally {
    await messagesApp.close();
  }
}
