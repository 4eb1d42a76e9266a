import { z } from 'zod';
import { DEPRECATION_RESPONSE_HEADERS } from '../calls/calls.routes';
import { defineRoute } from '../route/route';
import { ExportHeadersSchema, ExportQuerySchema, ExportSchema } from './exports.schemas';

const CACHE_HEADERS = {
  etag: {
    description:
      'A strong ETag of the body: send it back as If-None-Match to get 304 while the export is unchanged.',
    schema: z.string(),
  },
  'cache-control': {
    description:
      '`private, no-cache`: the body depends on the key and the subject; revalidate before reusing it.',
    schema: z.string(),
  },
  vary: { description: '`Authorization, X-Toolgate-Subject`.', schema: z.string() },
} as const;

export const exportsRoutes = {
  exportTools: defineRoute({
    operationId: 'exportTools',
    method: 'get',
    path: '/v1/exports',
    summary:
      'Tools in a provider wire format, each resolved for the caller (pin > canary bucket > stable), with an ETag.',
    description:
      'Tools without a stable release, past their sunset or in a brownout are left out and listed in `skipped`; a pin naming a version that does not exist answers `version_not_found`, one naming a version past its sunset `version_sunset` (with a `Link` to the successor). Two tools the format would name alike answer `conflict`.',
    tags: ['exports'],
    security: 'api_key',
    scopes: ['tools:read'],
    query: ExportQuerySchema,
    headers: ExportHeadersSchema,
    responses: {
      200: {
        description: 'The export.',
        schema: ExportSchema,
        headers: { ...CACHE_HEADERS, ...DEPRECATION_RESPONSE_HEADERS },
      },
      304: {
        description:
          'If-None-Match matched the current ETag: the export the caller has is current.',
        headers: { ...CACHE_HEADERS, ...DEPRECATION_RESPONSE_HEADERS },
      },
    },
    problems: ['version_not_found', 'version_sunset', 'conflict'],
  }),
};
