/**
 * Per-environment configuration, chosen with `-c env=dev|prod`: what each environment sets apart from the defaults,
 * and the `-c key=value` overrides; nothing else reads context. Every setting, its check and its default are in the
 * one schema, domain/config.ts.
 */
import { type ConfigKey, configValueFromText, type EnvConfig, generativePresets, parseConfig } from '../domain/config';
import type { PaymentMode } from '../domain/contract-shapes';
import { type GenerativeStyleSettings, validateGenerativeStyles } from '../domain/generative';
import { isStyleId, type StyleId } from '../domain/styles';
import { CAP_SETTINGS } from '../domain/wiring';

export type { EnvConfig, PaymentMode };

/** What each environment sets apart from the defaults (domain/config.ts holds every setting and its default). */
export const ENVIRONMENTS: Record<EnvConfig['envName'], EnvConfig> = {
  dev: parseConfig({ envName: 'dev', paymentMode: 'prelaunch', metricsNamespace: 'ToonZap/dev' }),
  prod: parseConfig({
    envName: 'prod',
    retainData: true,
    metricsNamespace: 'ToonZap/prod',
    engineProvisionedConcurrency: 1,
  }),
};

/** Reads `env` plus optional overrides (e.g. `-c paymentMode=stripe -c stripePublishableKey=pk_live_...`). */
export function resolveConfig(getContext: (key: string) => unknown): EnvConfig {
  const envName = String(getContext('env') ?? 'dev');
  if (envName !== 'dev' && envName !== 'prod') {
    throw new Error(`Unknown environment "${envName}": use -c env=dev or -c env=prod`);
  }
  const out: Record<string, unknown> = { ...ENVIRONMENTS[envName] };
  // Settings given as text on the command line; the schema reads numbers as numbers and checks each.
  const overridable: Exclude<ConfigKey, 'envName'>[] = [
    'brandName',
    'paymentMode',
    'stripePublishableKey',
    'stripeSecretName',
    'mailFrom',
    'siteUrl',
    'engineImageUri',
    'supportEmail',
    'alarmEmail',
    'metricsNamespace',
    'monthlyBudgetUsd',
    'siteDomain',
    'siteCertificateArn',
    'bedrockRegion',
    'rateLimitPer5Min',
    'workRateLimitPer5Min',
    ...CAP_SETTINGS,
    'engineMaxConcurrency',
    'engineProvisionedConcurrency',
    'bedrockRequestsPerMinute',
    'bedrockUpscaleModelId',
    'orderDeadlineMinutes',
  ];
  for (const key of overridable) {
    const value = getContext(key);
    if (value !== undefined && value !== null && value !== '') out[key] = configValueFromText(key, String(value));
  }
  Object.assign(out, generativeOverrides(out as unknown as EnvConfig, getContext));
  const cfg = parseConfig(out);
  if (!cfg.siteDomain !== !cfg.siteCertificateArn)
    throw new Error('siteDomain and siteCertificateArn go together: set both or neither');
  if (cfg.paymentMode === 'simulated') {
    throw new Error('paymentMode "simulated" exists only in the local runtime (npm start)');
  }
  return cfg.siteDomain && !cfg.siteUrl ? { ...cfg, siteUrl: `https://${cfg.siteDomain}` } : cfg;
}

/**
 * `-c generativeStyles`, `-c generativeSettings`, `-c bedrockProfileRegions` on top of the environment (the local
 * runtime passes its `generativeSettings` option through here too: local/template.ts).
 */
export function generativeOverrides(cfg: EnvConfig, getContext: (key: string) => unknown): Partial<EnvConfig> {
  // The environments' styles are presets: their model follows the (possibly overridden) Bedrock region.
  let styles = generativePresets(Object.keys(cfg.generativeStyles) as StyleId[], cfg.bedrockRegion) as Record<
    string,
    GenerativeStyleSettings
  >;
  const ids = getContext('generativeStyles');
  if (typeof ids === 'string' && ids !== '') {
    const list = ids === 'none' ? [] : ids.split(',').map((s) => s.trim());
    for (const id of list) if (!isStyleId(id)) throw new Error(`generativeStyles: unknown style "${id}"`);
    styles = generativePresets(list as StyleId[], cfg.bedrockRegion) as Record<string, GenerativeStyleSettings>;
  }
  const settings = getContext('generativeSettings');
  if (settings !== undefined) {
    const parsed = (typeof settings === 'string' ? JSON.parse(settings) : settings) as Record<
      string,
      Partial<GenerativeStyleSettings>
    >;
    for (const [id, fields] of Object.entries(parsed)) {
      if (!styles[id])
        throw new Error(`generativeSettings: style "${id}" is not generative here (add it to generativeStyles)`);
      styles[id] = { ...styles[id], ...fields };
    }
  }
  const out: Partial<Record<keyof EnvConfig, unknown>> = {
    generativeStyles: validateGenerativeStyles(styles, isStyleId),
  };
  const regions = getContext('bedrockProfileRegions');
  if (typeof regions === 'string' && regions !== '')
    out.bedrockProfileRegions = regions.split(',').map((r) => r.trim());
  return out as Partial<EnvConfig>;
}
