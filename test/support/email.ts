import { EmailOutbox, type EmailNotification } from '@app/email';
import { Sql } from '@app/database';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import { withDatabase } from './database';
import type { TestHttpApp } from './http-app';
import { waitFor } from './processes';

/** An email the test server accepted: its envelope, its raw source and its parse. */
export interface ReceivedEmail {
  to: string[];
  /** When the server accepted it (Date.now()). */
  at: number;
  raw: string;
  parsed: ParsedMail;
}

/** An SMTP answer to give instead of accepting: `451 …` or `550 …`. */
export interface SmtpRefusal {
  code: number;
  message: string;
}

/** A refusal as smtp-server answers it. */
function refusal({ code, message }: SmtpRefusal): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * A real SMTP server on the loopback (the smtp-server package), without STARTTLS or login: it records every
 * email it accepts, and answers recipients or messages as a test tells it.
 */
export class TestSmtpServer {
  readonly received: ReceivedEmail[] = [];
  /** Every RCPT TO it was asked, accepted or not. */
  readonly recipients: string[] = [];
  /** A refusal of a recipient, or undefined to accept it. */
  refuseRecipient: (address: string) => SmtpRefusal | undefined = () => undefined;
  /** Messages it kept waiting for their answer (`hold`). */
  held = 0;
  /** A refusal of the message after its DATA, or undefined to accept it; `hold` keeps the sender waiting. */
  refuseMessage: (to: string[]) => SmtpRefusal | 'hold' | undefined = () => undefined;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo: (address: SMTPServerAddress, _session: SMTPServerSession, callback: (error?: Error) => void) => {
      this.recipients.push(address.address);
      const refused = this.refuseRecipient(address.address);
      callback(refused && refusal(refused));
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((recipient) => recipient.address);
        const answer = this.refuseMessage(to);
        if (answer === 'hold') return void this.held++;
        if (answer) return callback(refusal(answer));
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw).then((parsed) => {
          this.received.push({ to, at: Date.now(), raw, parsed });
          callback();
        }, callback);
      });
    },
  });

  /** Listens on `port` of 127.0.0.1 (an ephemeral one by default); answers its `smtp://` URL. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const { port: listening } = this.server.server.address() as { port: number };
    return `smtp://127.0.0.1:${listening}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(resolve));
  }

  /** The emails it accepted for `address`. */
  to(address: string): ReceivedEmail[] {
    return this.received.filter((email) => email.to.includes(address));
  }

  /** Waits for `count` emails to `address`, and answers them. */
  async waitFor(address: string, count = 1, timeoutMs = 20_000): Promise<ReceivedEmail[]> {
    await waitFor(async () => this.to(address).length >= count, timeoutMs, `${count} email(s) to ${address}`);
    return this.to(address);
  }
}

/** Writes notifications to the outbox as a context does, in a transaction of the app; answers their ids. */
export function enqueueEmails(app: TestHttpApp, notifications: EmailNotification[]): Promise<string[]> {
  const sql = app.app.get(Sql);
  return sql.transaction(() => app.app.get(EmailOutbox).enqueue(notifications));
}

/** A notification as stored. */
export interface StoredEmail {
  id: string;
  address: string;
  list: string;
  status: string;
  attempts: number;
  last_error: string | null;
}

export async function storedEmail(id: string): Promise<StoredEmail | undefined> {
  return withDatabase(async (client) => {
    const { rows } = await client.query<StoredEmail>(
      'SELECT id, address, list, status, attempts, last_error FROM email_notifications WHERE id = $1',
      [id],
    );
    return rows[0];
  });
}

/** Waits until the worker has taken the notification to `status`. */
export async function waitForEmailStatus(id: string, status: string, timeoutMs = 20_000): Promise<StoredEmail> {
  await waitFor(async () => (await storedEmail(id))?.status === status, timeoutMs, `email ${id} to be ${status}`);
  return (await storedEmail(id))!;
}

/** Settles what earlier suites left in the outbox, so that this suite's worker sends only its own. */
export function settleEarlierEmails(): Promise<void> {
  return withDatabase(async (client) => {
    await client.query(
      `UPDATE email_notifications SET status = 'failed', finished_at = now() WHERE status = 'pending'`,
    );
  });
}

/** A digest of one pet, the smallest notification to send. */
export function digestOf(to: string, savedSearchId: string, petName = 'Rex'): EmailNotification<'saved_search_digest'> {
  return {
    to,
    list: { kind: 'saved_search', id: savedSearchId },
    template: 'saved_search_digest',
    data: { savedSearchId, searchName: 'Calm cats', query: 'categoryId=2', pets: [{ id: 7, name: petName }], more: 0 },
  };
}

/** An email's header section, each folded header on one line. */
export function headerLines(raw: string): string {
  return raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
}

/** The link of an email's List-Unsubscribe header, from its raw source. */
export function unsubscribeUrlOf(raw: string): string {
  const url = /^List-Unsubscribe: <([^>]+)>\r?$/m.exec(headerLines(raw))?.[1];
  if (!url) throw new Error('the email has no List-Unsubscribe header');
  return url;
}

/** A fresh address per test, so that suppressions and unsubscribes of one never reach another. */
export function testAddress(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@mail.test`;
}
