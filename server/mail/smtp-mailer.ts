import nodemailer from 'nodemailer';
import type { Mailer } from '../ports/mailer.ts';

/**
 * Email over SMTP with nodemailer. `url` is SMTP_URL, e.g.
 * smtp://user:pass@mail.example.com:587 (STARTTLS when offered) or smtps://… (TLS).
 * One pooled transport, so a burst of email steps reuses connections.
 */
export function createSmtpMailer(url: string, from: string): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(url, { pool: true, maxConnections: 3 } as never);
  return {
    from,
    async send(mail) {
      try {
        const info = await transport.sendMail({
          from,
          to: [...mail.to],
          cc: mail.cc.length > 0 ? [...mail.cc] : undefined,
          replyTo: mail.replyTo ?? undefined,
          subject: mail.subject,
          text: mail.text,
        });
        return { messageId: String(info.messageId) };
      } catch (error) {
        // The SMTP reply explains the refusal; the URL (with its password) is never repeated.
        const { code, responseCode, response } = error as { code?: string; responseCode?: number; response?: string };
        throw new Error(
          `the mail server refused or could not be reached (${[code, responseCode, response].filter(Boolean).join(' ') || (error as Error).message})`,
        );
      }
    },
    close() {
      transport.close();
    },
  };
}
