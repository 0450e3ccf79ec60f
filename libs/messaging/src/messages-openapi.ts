import type { Environment } from '@app/core';
import type { ApiTag } from '@app/http';
import type { OpenAPIObject } from '@nestjs/swagger';

export const MESSAGES_API_TAG: ApiTag = {
  name: 'messages',
  description: 'The message-sending operation, served from its own base address.',
};

/**
 * The message operations are served from their own base address (spec section 1), so each carries a
 * `servers` entry that overrides the document's `/v1` ones.
 */
export function withMessagesServer(document: OpenAPIObject, env: Environment): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    if (path !== '/messages' && !path.startsWith('/messages/')) continue;
    for (const operation of [item.get, item.post]) {
      if (operation) operation.servers = [{ url: env.PUBLIC_MESSAGES_URL, description: 'Message-sending operation' }];
    }
  }
  return document;
}
