import { STYLES } from '../../domain/styles';
import { httpHandler, respond } from '../lib/http';

/** GET /api/available-styles: the engine's style catalogue. */
export const handler = httpHandler(async () =>
  respond('available-styles', 200, {
    styles: STYLES.map(({ id, name, description, preview }) => ({ id, name, description, preview })),
  }, { 'cache-control': 'public, max-age=300' }),
);
