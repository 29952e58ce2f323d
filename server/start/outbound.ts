import type { Config } from '../config.ts';
import type { BotDefinition } from '../definition/schema.ts';
import { createSmtpMailer } from '../mail/smtp-mailer.ts';
import type { Logger } from '../ports/logger.ts';
import type { Mailer } from '../ports/mailer.ts';
import type { SmsSender } from '../ports/sms-sender.ts';
import { createHttpSmsSender } from '../sms/http-sms-sender.ts';

export interface Outbound {
  readonly mailer?: Mailer & { close(): void };
  readonly sms?: SmsSender;
}

/** The mail and SMS senders the settings name; a bot with email or sms steps and no sender is warned of once. */
export function outbound(config: Config, definition: BotDefinition, logger: Logger): Outbound {
  const mailer = config.SMTP_URL
    ? createSmtpMailer(config.SMTP_URL, config.SMTP_FROM ?? `"${definition.settings.name}" <bot@localhost>`)
    : undefined;
  const sms = config.SMS_URL
    ? createHttpSmsSender({
        url: config.SMS_URL,
        username: config.SMS_USERNAME,
        password: config.SMS_PASSWORD,
        from: config.SMS_FROM ?? definition.settings.name,
      })
    : undefined;
  const stepTypes = new Set(definition.dialogs.flatMap((d) => d.steps.map((step) => step.type)));
  if (!mailer && stepTypes.has('email'))
    logger.warn(
      { event: 'email_unconfigured' },
      'the bot has email steps but SMTP_URL is unset: they will fail and follow their onError',
    );
  if (!sms && stepTypes.has('sms'))
    logger.warn(
      { event: 'sms_unconfigured' },
      'the bot has sms steps but SMS_URL is unset: they will fail and follow their onError',
    );
  return { ...(mailer ? { mailer } : {}), ...(sms ? { sms } : {}) };
}
