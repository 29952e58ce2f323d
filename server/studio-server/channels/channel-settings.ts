import {
  CHANNEL_CONNECTORS,
  type ChannelConnectorName,
  type ChannelSettingsChange,
} from '../../../shared/studio-channels.ts';
import type { StudioAnswer } from '../../../shared/studio-api.ts';
import type { AuditActor, AuditTrail } from '../../ports/audit.ts';
import { HttpError } from '../../ports/http-error.ts';
import type { ConnectorSettings } from '../../settings/channel-settings.ts';
import type { SecretKeeper } from '../secrets/secret-keeper.ts';

/**
 * Where the studio keeps a connector's setting among its sealed secrets: under a name a definition
 * cannot read (a definition's secrets are named like environment variables), so that a channel's
 * credentials feed its connector only.
 */
export const channelSettingKey = (variable: string) => `channel:${variable}`;

/** What a test message got from the vendor. */
export interface TestOutcome {
  readonly channel: string;
  readonly delivered: boolean;
  readonly vendorCode: string | null;
  readonly vendorAnswer: string;
}

/** What Settings → Channels needs of the running connectors (server/start/connectors.ts). */
export interface RunningConnectors {
  /** Each connector's settings as they are now (the environment's, else the studio's). */
  settings(): readonly ConnectorSettings[];
  /** Why a value is refused, in the environment's words; undefined when it is fine. */
  check(variable: string, value: string): string | undefined;
  /** Why the connector cannot be set up from the studio; undefined when it can. */
  refusal(connector: ChannelConnectorName): string | undefined;
  /** A text through the channel's real send; the vendor's answer. */
  sendTest(channel: string, address: string, text: string): Promise<TestOutcome>;
}

export interface ChannelSettingsDeps {
  readonly secrets: SecretKeeper;
  readonly audit: AuditTrail;
  readonly connectors: RunningConnectors;
  /** The bot's public base URL, that the webhooks' URLs are made of. */
  readonly baseUrl: () => string;
  /** Whether PUBLIC_URL is set: without it a vendor cannot fetch an image the bot gives by its path. */
  readonly publicUrlSet: boolean;
  /** Tells the other nodes of a cluster that studio secrets changed (they read them again, and their connectors follow). */
  readonly announce: () => Promise<void>;
}

export type ChannelView = StudioAnswer<'listChannels'>[number];

/**
 * Settings → Channels: each connector's settings with where they come from, and changing the
 * studio's. Credentials go in and never come out (set or not set only); every change is audited
 * with the settings it changed, never a value.
 */
export function channelSettings(deps: ChannelSettingsDeps) {
  return {
    list: (): ChannelView[] => deps.connectors.settings().map((settings) => viewOf(deps, settings)),
    save: (connector: ChannelConnectorName, values: ChannelSettingsChange, actor: AuditActor, ip: string) =>
      saveSettings(deps, connector, values, actor, ip),
    test: (connector: ChannelConnectorName, input: TestInput, actor: AuditActor, ip: string) =>
      sendTestMessage(deps, connector, input, actor, ip),
  };
}

export type ChannelSettings = ReturnType<typeof channelSettings>;

/** What the owner asks a test message to do. */
interface TestInput {
  /** One of the connector's channels; its first when omitted. */
  readonly channel?: string | undefined;
  readonly address: string;
  readonly text: string;
}

const settingsOf = (deps: ChannelSettingsDeps, connector: ChannelConnectorName) =>
  deps.connectors.settings().find((settings) => settings.connector === connector)!;

/** A connector as the studio shows it: a credential's value never, the others' as they are in use. */
function viewOf(deps: ChannelSettingsDeps, settings: ConnectorSettings): ChannelView {
  const { channels, settings: fields } = CHANNEL_CONNECTORS[settings.connector];
  const base = deps.baseUrl().replace(/\/+$/, '');
  const stored = deps.secrets
    .list()
    .filter((secret) => fields.some((field) => channelSettingKey(field.variable) === secret.name))
    .sort((a, b) => b.updatedAt - a.updatedAt)[0];
  return {
    connector: settings.connector,
    source: settings.source,
    on: settings.on,
    missing: [...settings.missing],
    channels: channels.map((name) => ({
      name,
      on: settings.channels.includes(name),
      webhookUrl: `${base}/api/webhooks/${name}`,
    })),
    // What start-up logs once (channel_image_paths_unresolved), said also of a connector switched on later.
    imagePathsUnresolved: settings.on && !deps.publicUrlSet,
    settings: fields.map((field) => {
      const value = settings.values[field.variable];
      return { ...field, set: value !== undefined, value: field.secret || value === undefined ? null : value };
    }),
    updatedAt: stored ? new Date(stored.updatedAt).toISOString() : null,
    updatedBy: stored?.updatedBy ?? null,
  };
}

/**
 * The studio's keys to write (value, or null to remove) for what the owner sent: only what differs
 * from what is kept. Every refused field is named with its rule in one 400.
 */
function changesOf(
  deps: ChannelSettingsDeps,
  connector: ChannelConnectorName,
  values: ChannelSettingsChange,
): Map<string, string | null> {
  const changes = new Map<string, string | null>();
  const problems: Record<string, string> = {};
  const known = new Set<string>(CHANNEL_CONNECTORS[connector].settings.map((field) => field.variable));
  for (const [variable, value] of Object.entries(values)) {
    const problem = !known.has(variable)
      ? `is not a setting of the ${connector} connector`
      : value === null
        ? undefined
        : value.trim() === ''
          ? 'give a value (or null to remove it)'
          : deps.connectors.check(variable, value);
    if (problem) problems[variable] = problem;
    else if ((value?.trim() ?? null) !== (deps.secrets.value(channelSettingKey(variable)) ?? null))
      changes.set(channelSettingKey(variable), value?.trim() ?? null);
  }
  const refused = Object.keys(problems);
  if (refused.length > 0)
    throw new HttpError(400, 'invalid_body', `values.${refused[0]}: ${problems[refused[0]!]}.`, {
      path: `values.${refused[0]}`,
      fields: problems,
    });
  return changes;
}

async function saveSettings(
  deps: ChannelSettingsDeps,
  connector: ChannelConnectorName,
  values: ChannelSettingsChange,
  actor: AuditActor,
  ip: string,
): Promise<ChannelView> {
  const refusal = deps.connectors.refusal(connector);
  if (refusal) throw new HttpError(409, 'conflict', `The ${connector} connector cannot be set up here: ${refusal}.`);
  if (settingsOf(deps, connector).source === 'environment')
    throw new HttpError(
      409,
      'set_in_environment',
      `The environment sets the ${connector} connector, and it wins over the studio: change its settings there.`,
    );
  const changes = changesOf(deps, connector, values);
  if (changes.size > 0) {
    await deps.secrets.write(changes, actor.email ?? actor.kind);
    const names = (removed: boolean) =>
      [...changes].filter(([, now]) => (now === null) === removed).map(([key]) => key.slice('channel:'.length));
    await deps.audit.record({
      actor,
      ip,
      action: 'channel_settings_changed',
      target: connector,
      details: { set: names(false), removed: names(true) },
    });
    await deps.announce();
  }
  return viewOf(deps, settingsOf(deps, connector));
}

async function sendTestMessage(
  deps: ChannelSettingsDeps,
  connector: ChannelConnectorName,
  input: TestInput,
  actor: AuditActor,
  ip: string,
): Promise<TestOutcome> {
  const channels: readonly string[] = CHANNEL_CONNECTORS[connector].channels;
  const channel = input.channel ?? channels[0]!;
  if (!channels.includes(channel))
    throw new HttpError(400, 'invalid_body', `channel: the ${connector} connector serves ${channels.join(', ')}.`, {
      path: 'channel',
    });
  const settings = settingsOf(deps, connector);
  if (!settings.channels.includes(channel))
    throw new HttpError(
      409,
      'channel_off',
      `The ${channel} channel is off; it needs ${settings.missing.join(', ') || 'its sender'}.`,
      { missing: [...settings.missing] },
    );
  const outcome = await deps.connectors.sendTest(channel, input.address, input.text);
  // Who tested which channel and what the vendor said; the address is a person's, and stays out.
  await deps.audit.record({
    actor,
    ip,
    action: 'channel_test_sent',
    target: channel,
    details: { delivered: outcome.delivered, vendorCode: outcome.vendorCode },
  });
  return outcome;
}
