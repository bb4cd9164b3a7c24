import { httpHandler, respond } from '../lib/http';

/** GET /api/status: health ping; answers without touching any dependency so it measures the API itself. */
export const handler = httpHandler(async () =>
  respond('status', 200, { status: 'ok', time: new Date().toISOString() }),
);
