import { timingSafeEqual } from 'node:crypto';
import { AppError, PERIODIC_QUEUE, PeriodicQueueModule, settingsModule } from '@app/core';
import { MESSAGES_QUEUE, MessagingModule } from '@app/messaging';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { Module, NotFoundException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiSettings } from './api.settings';

export const QUEUE_DASHBOARD_ROUTE = '/admin/queues';

class AdminAuthRequiredError extends AppError {
  constructor() {
    super(401, 'unauthorized', 'The queue dashboard needs the admin token (HTTP Basic, any user name).', undefined, {
      'WWW-Authenticate': 'Basic realm="queues", charset="UTF-8"',
    });
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Basic authentication with ADMIN_TOKEN as the password (browsers ask for it), or a Bearer token.
 * Without ADMIN_TOKEN the dashboard does not exist.
 */
function adminOnly(token: string | undefined) {
  return (request: Request, _response: Response, next: NextFunction): void => {
    // Answered like any unknown route: the global filter words the 404.
    if (!token) throw new NotFoundException();
    const [scheme, credentials = ''] = (request.headers.authorization ?? '').split(' ');
    const given =
      scheme?.toLowerCase() === 'basic'
        ? Buffer.from(credentials, 'base64').toString('utf8').split(':').slice(1).join(':')
        : scheme?.toLowerCase() === 'bearer'
          ? credentials
          : '';
    if (!sameSecret(given, token)) throw new AdminAuthRequiredError();
    next();
  };
}

/** Bull Board for maintainers at /admin/queues on the api: jobs by state, retries, failures. */
@Module({
  imports: [
    MessagingModule,
    PeriodicQueueModule,
    BullBoardModule.forRootAsync({
      imports: [settingsModule(ApiSettings)],
      inject: [ApiSettings],
      useFactory: (settings: ApiSettings) => ({
        route: QUEUE_DASHBOARD_ROUTE,
        adapter: ExpressAdapter,
        middleware: adminOnly(settings.ADMIN_TOKEN),
        boardOptions: { uiConfig: { boardTitle: 'Pet Adoption queues' } },
      }),
    }),
    BullBoardModule.forFeature({ name: MESSAGES_QUEUE, adapter: BullMQAdapter }),
    // Each periodic job's runs, failures and retries (one job scheduler each).
    BullBoardModule.forFeature({ name: PERIODIC_QUEUE, adapter: BullMQAdapter }),
  ],
})
export class QueueDashboardModule {}
