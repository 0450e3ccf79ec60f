import { settingsModule } from '@app/core';
import { HttpSettings, OpenApiSettings } from '@app/http';
import { Module } from '@nestjs/common';
import { EmailDelivery } from './delivery/email-delivery';
import { EmailTransport, LogEmailTransport, SmtpEmailTransport } from './delivery/email-transport';
import { EmailAddresses } from './email-addresses';
import { EmailPersonalData } from './email-personal-data.part';
import { EmailReports } from './email-report';
import { EmailOutbox } from './email.outbox';
import { EmailRepository } from './email.repository';
import { EmailDeliverySettings, EmailSettings } from './email.settings';
import { UnsubscribeController } from './unsubscribe.controller';
import { UnsubscribeService } from './unsubscribe.service';
import { UnsubscribeTokens } from './unsubscribe-tokens';

/**
 * The outbox other contexts write to, the operator's view and the email's part of personal data: what the
 * api, the worker and the CLI import.
 */
@Module({
  providers: [EmailRepository, EmailOutbox, EmailReports, EmailPersonalData],
  exports: [EmailRepository, EmailOutbox, EmailReports],
})
export class EmailModule {}

/** The unsubscribe links' tokens, which the api checks and the worker signs. */
@Module({
  imports: [settingsModule(EmailSettings)],
  providers: [UnsubscribeTokens],
  exports: [UnsubscribeTokens],
})
class UnsubscribeTokensModule {}

/** `/v1/unsubscribe/{token}`. */
@Module({
  imports: [EmailModule, UnsubscribeTokensModule],
  providers: [UnsubscribeService],
  controllers: [UnsubscribeController],
})
export class EmailHttpModule {}

/** The delivery of the outbox, through the transport `EMAIL_TRANSPORT` names. Imported by the worker app only. */
@Module({
  imports: [
    EmailModule,
    UnsubscribeTokensModule,
    settingsModule(EmailDeliverySettings),
    settingsModule(HttpSettings),
    settingsModule(OpenApiSettings),
  ],
  providers: [
    EmailAddresses,
    EmailDelivery,
    {
      provide: EmailTransport,
      inject: [EmailDeliverySettings],
      useFactory: (settings: EmailDeliverySettings): EmailTransport =>
        settings.transport === 'smtp'
          ? new SmtpEmailTransport(settings.SMTP_URL!, settings.EMAIL_SEND_TIMEOUT_MS)
          : new LogEmailTransport(),
    },
  ],
})
export class EmailWorkerModule {}
