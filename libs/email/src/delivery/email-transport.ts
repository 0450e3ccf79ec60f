import { Logger } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type { RenderedEmail } from '../templates/layout';

/** An email ready to send: its rendering, its addresses and its headers. */
export interface OutgoingEmail extends RenderedEmail {
  from: string;
  to: string;
  /** `<id@domain>`, unique to the notification. */
  messageId: string;
  unsubscribeUrl: string;
}

/** A send that failed: `permanent` when the recipient's server refused the recipient or the message for good. */
export class EmailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** Where emails go (`EMAIL_TRANSPORT`); resolves once the email is accepted, else throws EmailSendError. */
export abstract class EmailTransport {
  abstract send(email: OutgoingEmail): Promise<void>;
  close(): void {}
}

/** One log line per email, for development, where no one is to be reached. */
export class LogEmailTransport extends EmailTransport {
  private readonly logger = new Logger('EmailTransport');

  async send(email: OutgoingEmail): Promise<void> {
    this.logger.log(
      {
        messageId: email.messageId,
        to: email.to,
        subject: email.subject,
        text: email.text,
        unsubscribe: email.unsubscribeUrl,
      },
      'email sent',
    );
  }
}

/** The SMTP commands whose permanent refusal is about the recipient or the message, not the sender's setup. */
const RECIPIENT_COMMANDS = new Set(['RCPT TO', 'DATA']);

/**
 * Sends through `SMTP_URL` on a few pooled connections (STARTTLS when the server offers it). A `5xx` to
 * the recipient or the message is permanent; a `4xx`, a connection failure or a timeout is not, nor is a
 * `5xx` to the sender or the login, which a fixed configuration cures.
 */
export class SmtpEmailTransport extends EmailTransport {
  private readonly transporter: Transporter;

  constructor(url: string, timeoutMs: number) {
    super();
    this.transporter = createTransport({
      url,
      pool: true,
      maxConnections: 5,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }

  async send(email: OutgoingEmail): Promise<void> {
    try {
      await this.transporter.sendMail({
        from: email.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: email.messageId,
        headers: {
          'List-Unsubscribe': `<${email.unsubscribeUrl}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
    } catch (error) {
      const { responseCode, command, message } = error as { responseCode?: number; command?: string; message: string };
      const permanent =
        responseCode !== undefined &&
        responseCode >= 500 &&
        responseCode < 600 &&
        RECIPIENT_COMMANDS.has(command ?? '');
      throw new EmailSendError(message, permanent);
    }
  }

  override close(): void {
    this.transporter.close();
  }
}
