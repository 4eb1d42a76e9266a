import { z } from 'zod';
import { DEPRECATION_RESPONSE_HEADERS } from '../calls/calls.routes';
import { defineRoute } from '../route/route';
import { ExportHeadersSchema, ExportQuerySchema, ExportSchema } from './exports.schemas';

const CACHE_HEADERS = {
  etag: {
    description:
      'An ETag of the body (strong; weak, `W/"..."`, on a compressed answer): send it back as If-None-Match to get 304 while the export is unchanged.',
    schema: z.string(),
  },
  'cache-control': {
    description:
      '`private, no-cache`: the body depends on the key and the subject; revalidate before reusing it.',
    schema: z.string(),
  },
  vary: {
    description: '`Authorization, X-Toolgate-Subject, Accept-Encoding`.',
    schema: z.string(),
  },
} as const;

const PAGE_LINK_HEADER = {
  description:
    'A `rel="next"` link to the next page when the selection has more tools than `limit`, beside a `rel="successor-version"` link per deprecated tool that names a successor.',
  schema: z.string().optional(),
} as const;

export const exportsRoutes = {
  exportTools: defineRoute({
    operationId: 'exportTools',
    method: 'get',
    path: '/v1/exports',
    summary:
      'Tools in a provider wire format, each resolved for the caller (pin > canary bucket > stable), with an ETag.',
    description:
      'The selection is paged by tool name (`limit`, default 500, at most 1000): a page lists its tools in `tools` and `skipped`, `total` counts the whole selection, and `next_cursor` (also a `Link: <...>; rel="next"` header) fetches the next page. Tools without a stable release, past their sunset or in a brownout are left out and listed in `skipped`; a pin naming a version that does not exist answers `version_not_found`, one naming a version past its sunset `version_sunset` (with a `Link` to the successor). Two tools the format would name alike answer `conflict`.',
    tags: ['exports'],
    security: 'api_key',
    scopes: ['tools:read'],
    query: ExportQuerySchema,
    headers: ExportHeadersSchema,
    responses: {
      200: {
        description: 'The export.',
        schema: ExportSchema,
        headers: { ...CACHE_HEADERS, ...DEPRECATION_RESPONSE_HEADERS, link: PAGE_LINK_HEADER },
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
