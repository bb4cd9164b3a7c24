import { contract } from '../../domain/contract';
import { httpHandler, parseWith, pathParam } from '../lib/http';
import { sharePage } from '../lib/share-page';

/** GET /image/{id} → the share page of a gallery, as HTML with its first image's social card (lambdas/lib/share-page.ts). */
export const handler = httpHandler(async (event) => {
  const { id } = parseWith(contract['share-gallery-page'].params, { id: pathParam(event, 'id') });
  return sharePage(id);
});
