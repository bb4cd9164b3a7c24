import { configDefault } from '../../domain/config';
import { ENV } from '../../domain/wiring';

/** lambdas/lib/settings.ts: the values the stack passes, read with the configuration schema's checks and defaults. */
describe('handler settings', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });
  const load = () => {
    let mod!: typeof import('../../lambdas/lib/settings');
    jest.isolateModules(() => {
      mod = require('../../lambdas/lib/settings');
    });
    return mod.settings;
  };

  test('unset: the one default, the same the stack starts from', () => {
    for (const key of ['brandName', 'paymentMode', 'uploadUrlTtlSeconds', 'generativePreviewsPerDay'] as const)
      delete process.env[ENV[key]];
    const settings = load();
    expect(settings.paymentMode).toBe(configDefault('paymentMode'));
    expect(settings.brandName).toBe('ToonZap');
    expect(settings.uploadUrlTtlSeconds).toBe(configDefault('uploadUrlTtlSeconds'));
    expect(settings.generativePreviewsPerDay).toBe(configDefault('generativePreviewsPerDay'));
  });

  test('set: read as its type; a value the schema refuses fails the call that reads it, naming it', () => {
    Object.assign(process.env, {
      [ENV.paymentMode]: 'prelaunch',
      [ENV.generativePreviewsPerDay]: '0',
      [ENV.moderationMinConfidence]: '75',
      [ENV.stripePublishableKey]: '',
    });
    const settings = load();
    expect(settings.paymentMode).toBe('prelaunch');
    expect(settings.generativePreviewsPerDay).toBe(0);
    expect(settings.moderationMinConfidence).toBe(75);
    expect(settings.stripePublishableKey).toBeNull();
    process.env[ENV.paymentMode] = 'cash';
    expect(() => settings.paymentMode).toThrow(/paymentMode .*"cash"/);
  });
});
