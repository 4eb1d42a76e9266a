import { Controller, Inject, Res } from '@nestjs/common';
import { routes, type RouteInput } from '@toolgate/contract';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { canarySubjectOf } from '../auth/canary-subject';
import type { Principal } from '../auth/principal';
import { Endpoint } from '../contract/endpoint.decorator';
import { Input } from '../contract/route-input.decorator';
import { ExportsService } from './exports.service';

/** RFC 9110 §13.1.2: If-None-Match uses weak comparison; `*` matches any current representation. */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}

/** The request's own path and query with the next page's cursor (RFC 8288 `rel="next"`). */
function nextPageUrl(requestUrl: string, cursor: string): string {
  const url = new URL(requestUrl, 'http://toolgate.invalid');
  url.searchParams.set('cursor', cursor);
  return `${url.pathname}${url.search}`;
}

@Controller()
export class ExportsController {
  constructor(@Inject(ExportsService) private readonly exportsService: ExportsService) {}

  @Endpoint(routes.exportTools)
  async export(
    @CurrentPrincipal() principal: Principal,
    @Input() input: RouteInput<typeof routes.exportTools>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const rendered = await this.exportsService.export(
      principal,
      input.query,
      canarySubjectOf(principal, input.headers['x-toolgate-subject']),
    );
    const next = rendered.document.next_cursor;
    const links = [
      ...(rendered.headers['link'] === undefined ? [] : [rendered.headers['link']]),
      ...(next === null ? [] : [`<${nextPageUrl(reply.request.url, next)}>; rel="next"`]),
    ];
    // The body depends on the subject (canary bucket) and the key (visibility).
    void reply.headers({
      ...rendered.headers,
      ...(links.length === 0 ? {} : { link: links.join(', ') }),
      etag: rendered.etag,
      vary: 'Authorization, X-Toolgate-Subject',
      'cache-control': 'private, no-cache',
    });
    if (matchesEtag(input.headers['if-none-match'], rendered.etag)) {
      void reply.status(304);
      return undefined;
    }
    void reply.type('application/json; charset=utf-8');
    // The text cached with the export: no stringify per request on the hot path.
    return rendered.body;
  }
}
