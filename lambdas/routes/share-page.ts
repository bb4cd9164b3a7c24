import { contract } from '../../domain/contract';
import { httpHandler, parseWith, pathParam } from '../lib/http';
import { sharePage } from '../lib/share-page';

/** GET /image/{id}/{style} → the share page of one image, as HTML with its own social card (lambdas/lib/share-page.ts). */
export const handler = httpHandler(async (event) => {
  const { id, style } = parseWith(contract['share-page'].params, {
    id: pathParam(event, 'id'),
    style: pathParam(event, 'style'),
  });
  return sharePage(id, style);
});
