import { defineRoute } from '../route/route';
import { PriceListSchema, PriceParamsSchema, PriceSchema, PutPriceSchema } from './prices.schemas';

const tags = ['prices'] as const;

export const pricesRoutes = {
  listPrices: defineRoute({
    operationId: 'listPrices',
    method: 'get',
    path: '/v1/prices',
    summary: 'The token price table: per provider and model, defaults and custom prices.',
    description:
      "What prices each call's share of its turn's tokens. A response whose model has no row here leaves the call's `tokens_usd` null, with a reason.",
    tags,
    security: 'api_key',
    scopes: ['tools:read'],
    responses: { 200: { description: 'The price table.', schema: PriceListSchema } },
    problems: [],
  }),
  putPrice: defineRoute({
    operationId: 'putPrice',
    method: 'put',
    path: '/v1/prices/{provider}/{model}',
    summary: "Set a model's token prices (a custom price, overriding any default); audited.",
    description:
      'Installation-wide: the installation admin key or a console admin; a team key is `forbidden`. Calls recorded from now on are priced with it; recorded calls keep their price.',
    tags,
    security: 'api_key',
    scopes: ['admin'],
    params: PriceParamsSchema,
    body: PutPriceSchema,
    bodyExamples: { sonnet: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 } },
    responses: { 200: { description: 'The price as it now stands.', schema: PriceSchema } },
    problems: ['forbidden'],
  }),
  deletePrice: defineRoute({
    operationId: 'deletePrice',
    method: 'delete',
    path: '/v1/prices/{provider}/{model}',
    summary: "Remove a model's custom price (its default, if any, applies again); audited.",
    tags,
    security: 'api_key',
    scopes: ['admin'],
    params: PriceParamsSchema,
    responses: { 204: { description: 'Removed.' } },
    problems: ['forbidden', 'not_found'],
  }),
};
