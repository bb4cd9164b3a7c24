import { STYLES } from '../../domain/styles';
import { httpHandler, respond } from '../lib/http';
import { isGenerative } from '../lib/renderer';

/** GET /api/available-styles: the style catalogue, each style saying whether a generative model draws it here. */
export const handler = httpHandler(async () =>
  respond(
    'available-styles',
    200,
    {
      styles: STYLES.map(({ id, name, description, preview }) => ({
        id,
        name,
        description,
        preview,
        aiGenerated: isGenerative(id),
      })),
    },
    { 'cache-control': 'public, max-age=300' },
  ),
);
