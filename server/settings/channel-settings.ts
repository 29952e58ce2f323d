import {
  CHANNEL_CONNECTORS,
  type ChannelConnectorName,
  type ChannelSettingsSource,
} from '../../shared/studio-channels.ts';

type Lookup = (variable: string) => string | undefined;

/** A connector's settings as the server uses them now. */
export interface ConnectorSettings {
  readonly connector: ChannelConnectorName;
  readonly source: ChannelSettingsSource;
  /** The values in use, by variable: all from the source (never a mix of the environment and the studio). */
  readonly values: Readonly<Record<string, string | undefined>>;
  /** What it still needs to be on: variables, or "A or B" where either does. */
  readonly missing: readonly string[];
  readonly on: boolean;
  /** Its channels that are on (Twilio's each need their sender). */
  readonly channels: readonly string[];
}

/**
 * Where a connector's settings come from: the environment when it sets any of them (it wins, for
 * the whole connector, so that a deployment's settings are never mixed with the studio's), else the
 * studio's. `publicUrl` is PUBLIC_URL, which Twilio's signature is computed over.
 */
export function connectorSettings(
  connector: ChannelConnectorName,
  sources: { readonly environment: Lookup; readonly studio: Lookup; readonly publicUrl: string | undefined },
): ConnectorSettings {
  const { settings, channels } = CHANNEL_CONNECTORS[connector];
  const variables = settings.map((setting) => setting.variable);
  const source: ChannelSettingsSource = variables.some((name) => sources.environment(name) !== undefined)
    ? 'environment'
    : variables.some((name) => sources.studio(name) !== undefined)
      ? 'studio'
      : 'none';
  const read = source === 'environment' ? sources.environment : sources.studio;
  const values = Object.fromEntries(variables.map((name) => [name, source === 'none' ? undefined : read(name)]));
  const missing: string[] = settings
    .filter((setting) => setting.required && values[setting.variable] === undefined)
    .map((setting) => setting.variable);
  let on: readonly string[] = channels;
  if (connector === 'twilio') {
    on = channels.filter((_channel, i) => values[i === 0 ? 'TWILIO_SMS_FROM' : 'TWILIO_WHATSAPP_FROM'] !== undefined);
    if (on.length === 0) missing.push('TWILIO_SMS_FROM or TWILIO_WHATSAPP_FROM');
    if (sources.publicUrl === undefined) missing.push('PUBLIC_URL');
  }
  return { connector, source, values, missing, on: missing.length === 0, channels: missing.length === 0 ? on : [] };
}
