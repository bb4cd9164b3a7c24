import { configDefault, configValueFromText, parseConfig } from '../../domain/config';
import { ENVIRONMENTS, resolveConfig } from '../../lib/config';

/** domain/config.ts: one schema, read by the CDK app (lib/config.ts) and the handlers (lambdas/lib/settings.ts). */
describe('configuration schema', () => {
  test('an environment is its differences from the defaults', () => {
    expect(ENVIRONMENTS.prod.paymentMode).toBe(configDefault('paymentMode'));
    expect(ENVIRONMENTS.prod.paymentMode).toBe('stripe');
    expect(ENVIRONMENTS.dev.paymentMode).toBe('prelaunch');
    expect(ENVIRONMENTS.dev.uploadUrlTtlSeconds).toBe(300);
    // prod keeps the default free-preview budget: docs/costs.md finds the free model calls pay back only above ~18 % conversion.
    expect(ENVIRONMENTS.prod.generativePreviewsPerDay).toBe(200);
    expect(ENVIRONMENTS.prod.retainData).toBe(true);
    expect(Object.keys(ENVIRONMENTS.dev.generativeStyles).sort()).toEqual(['3d', 'anime']);
  });

  test('every field is checked, and the error names each wrong one', () => {
    expect(() => parseConfig({ envName: 'dev', paymentMode: 'cash', rateLimitPer5Min: 5 })).toThrow(
      /paymentMode .*"cash".*; rateLimitPer5Min must be a whole number from 10 to 2000000000, not 5/,
    );
    expect(() => parseConfig({ envName: 'staging' })).toThrow(/envName/);
  });

  test('text values (environment variables, -c context) are read as their type; empty means the default', () => {
    expect(configValueFromText('uploadUrlTtlSeconds', '120')).toBe(120);
    expect(configValueFromText('uploadUrlTtlSeconds', '')).toBe(300);
    expect(configValueFromText('generativePreviewsPerDay', '0')).toBe(0);
    expect(configValueFromText('stripePublishableKey', undefined)).toBeNull();
    expect(() => configValueFromText('uploadUrlTtlSeconds', 'soon')).toThrow(/uploadUrlTtlSeconds .*"soon"/);
    expect(() => configValueFromText('generativePreviewsPerDay', '-1')).toThrow(/generativePreviewsPerDay/);
  });

  test('context overrides go through the same checks', () => {
    const ctx = (values: Record<string, string>) => (k: string) => ({ env: 'prod', ...values })[k];
    expect(resolveConfig(ctx({ workRateLimitPer5Min: '250' })).workRateLimitPer5Min).toBe(250);
    expect(() => resolveConfig(ctx({ rateLimitPer5Min: '9' }))).toThrow(/rateLimitPer5Min must be a whole number/);
    expect(() => resolveConfig(ctx({ paymentMode: 'cash' }))).toThrow(/paymentMode/);
    expect(() => resolveConfig(ctx({ paymentMode: 'simulated' }))).toThrow(/only in the local runtime/);
    expect(resolveConfig(ctx({ generativePreviewsPerDay: '0' })).generativePreviewsPerDay).toBe(0);
  });
});
