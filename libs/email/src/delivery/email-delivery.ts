import { ContinuousPoller } from '@app/core';
import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { EmailAddresses } from '../email-addresses';
import { EmailRepository, type StoredNotification } from '../email.repository';
import { EmailDeliverySettings } from '../email.settings';
import { renderEmail } from '../templates/email-templates';
import { UnsubscribeTokens } from '../unsubscribe-tokens';
import { EmailSendError, EmailTransport } from './email-transport';

/** How often each worker looks for due emails: well within the minute an email may take. */
const POLL_INTERVAL_MS = 500;

/** Emails one worker claims, and sends side by side, at a time. */
const CLAIM_BATCH = 20;

/**
 * The outbox's delivery, a continuous poller in every worker: claims due notifications (each claim is an
 * attempt, committed before the send, and lasts twice `EMAIL_SEND_TIMEOUT_MS`, so that a worker killed
 * mid-send leaves its emails due again, not lost), renders them, sends them, and records each outcome:
 * sent on the server's acceptance, never again; retried with backoff after a temporary failure; bounced
 * after a permanent refusal, which suppresses the address.
 */
@Injectable()
export class EmailDelivery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmailDelivery.name);
  private readonly task = new ContinuousPoller('email delivery', this.logger, () => this.deliverDue());

  constructor(
    private readonly emails: EmailRepository,
    private readonly transport: EmailTransport,
    private readonly tokens: UnsubscribeTokens,
    private readonly addresses: EmailAddresses,
    private readonly settings: EmailDeliverySettings,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(POLL_INTERVAL_MS);
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
    this.transport.close();
  }

  /** Claims and sends batches until one is not full. */
  async deliverDue(): Promise<void> {
    let claimed: StoredNotification[];
    do {
      claimed = await this.emails.claimDue(CLAIM_BATCH, 2 * this.settings.EMAIL_SEND_TIMEOUT_MS);
      await Promise.all(claimed.map((notification) => this.deliver(notification)));
    } while (claimed.length === CLAIM_BATCH && !this.task.stopped);
  }

  private async deliver(notification: StoredNotification): Promise<void> {
    const unsubscribeUrl = this.addresses.unsubscribeUrl(
      this.tokens.sign({ addressKey: notification.addressKey, list: notification.list }),
    );
    try {
      await this.transport.send({
        ...renderEmail(notification.template, notification.data, unsubscribeUrl),
        from: this.settings.EMAIL_FROM,
        to: notification.address,
        messageId: `<${notification.id}@${this.addresses.messageIdDomain}>`,
        unsubscribeUrl,
      });
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      if (error instanceof EmailSendError && error.permanent) {
        this.logger.warn(`email ${notification.id} refused for good, its address suppressed: ${message}`);
        await this.emails.markBounced(notification.id, message);
      } else {
        this.logger.warn(`email ${notification.id} not sent (attempt ${notification.attempts}), to retry: ${message}`);
        await this.emails.markRetry(notification.id, message, this.settings.EMAIL_BACKOFF_MS);
      }
      return;
    }
    await this.emails.markSent(notification.id);
  }
}
