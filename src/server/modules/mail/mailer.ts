import { createTransport } from 'nodemailer';
import { routes } from '../../../shared/contract/routes.ts';

/** A message as the outbox hands it to SMTP. */
export type OutgoingMail = { to: string; subject: string; text: string; html: string; unsubscribeUrl?: string | null };

/** Sends one message over SMTP; a refusal or an unreachable server throws. */
export type Mailer = { send(message: OutgoingMail): Promise<void>; close(): void };

/**
 * How long one attempt may take at most (connect, greeting, every reply): well under the outbox's lease, so a message
 * is never sent by a second instance while a slow first one still talks to the server.
 */
export const SMTP_TIMEOUTS_MS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 } as const;

/**
 * List-Unsubscribe: mail readers show their own button. On the one-click address it posts there (RFC 8058,
 * List-Unsubscribe-Post); a message queued before that address existed names the page, which only a browser opens.
 */
function unsubscribeHeaders(url: string) {
  const oneClick = new URL(url).pathname === routes.mail.oneClickUnsubscribe.path;
  return {
    list: { unsubscribe: url },
    ...(oneClick ? { headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
  };
}

/** The SMTP server of SMTP_URL (nodemailer: STARTTLS when offered on smtp://, TLS from the start on smtps://). */
export function createMailer(smtp: { url: string; from: string }): Mailer {
  const transport = createTransport({ url: smtp.url, ...SMTP_TIMEOUTS_MS }, { from: smtp.from });
  return {
    async send({ unsubscribeUrl, ...message }) {
      await transport.sendMail({ ...message, ...(unsubscribeUrl ? unsubscribeHeaders(unsubscribeUrl) : {}) });
    },
    close: () => transport.close(),
  };
}
