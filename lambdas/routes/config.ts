import { httpHandler, respond } from '../lib/http';
import { settings } from '../lib/settings';

/** GET /api/config: the frontend's settings, so nothing environment-specific is baked into the bundle. */
export const handler = httpHandler(async () =>
  respond(
    'config',
    200,
    {
      brand: settings.brandName,
      paymentMode: settings.paymentMode,
      publishableKey: settings.stripePublishableKey,
      supportEmail: settings.supportEmail,
      generativeStandIn: settings.generativeStandIn,
    },
    { 'cache-control': 'public, max-age=60' },
  ),
);
