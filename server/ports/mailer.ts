/** Sends email (server/mail/ implements it with nodemailer over SMTP). */
export interface OutgoingMail {
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly replyTo: string | null;
  readonly subject: string;
  /** Plain text. */
  readonly text: string;
}

export interface Mailer {
  /** The From address every mail carries. */
  readonly from: string;
  /** Resolves once the server accepted the mail; rejects with a reason a person can act on. */
  send(mail: OutgoingMail): Promise<{ readonly messageId: string }>;
}
