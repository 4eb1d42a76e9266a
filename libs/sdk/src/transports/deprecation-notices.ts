import type { ExportToolResolution } from '@toolgate/contract';

/** A served tool version (or a whole response) is deprecated; surfaced once per tool or URL and deprecation value. */
export interface DeprecationNotice {
  /** The request URL whose response carried the notice. */
  url: string;
  /** The deprecated tool, when the body says which one. */
  tool?: string;
  /** The deprecated version of that tool. */
  version?: string;
  /** The `Deprecation` header value (RFC 9745: `@<unix seconds>`), when sent. */
  deprecation?: string;
  /** When the version stops being served: the `Sunset` header (RFC 8594) or the body's `sunset_at`. */
  sunset?: string;
  /** The successor version (body) or the `rel="successor-version"` link targets (RFC 5829). */
  successor?: string;
}

/** Where deprecation notices go. */
export type DeprecationHandler = (notice: DeprecationNotice) => void;

/** Every `rel="successor-version"` target of a `Link` header (RFC 8288). */
export function successorLinks(link: string | null): string[] {
  if (link === null) return [];
  const targets: string[] = [];
  for (const match of link.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]+)*)/g)) {
    const params = match[2] ?? '';
    if (/;\s*rel\s*=\s*"?[^";,]*\bsuccessor-version\b/i.test(params) && match[1] !== undefined)
      targets.push(match[1]);
  }
  return targets;
}

/** Remembers which notices were surfaced: each deprecated tool version (per sunset and successor) or URL (per `Deprecation` value) is reported once per client. */
export class DeprecationNotices {
  private readonly seen = new Set<string>();

  constructor(private readonly handler: DeprecationHandler) {}

  /** Surfaces the deprecations of one response: per tool when the body names them, else per URL from the headers. */
  observe(input: {
    url: string;
    headers: Headers;
    resolution?: readonly ExportToolResolution[];
  }): void {
    const deprecation = input.headers.get('deprecation') ?? undefined;
    const sunset = input.headers.get('sunset') ?? undefined;
    const successors = successorLinks(input.headers.get('link'));
    const tools = (input.resolution ?? []).filter((resolution) => resolution.deprecated);
    if (tools.length > 0) {
      for (const tool of tools) {
        const successor = tool.successor_version ?? undefined;
        const toolSunset = tool.sunset_at ?? sunset;
        // Keyed by the tool's own lifecycle: the headers describe the whole export (its earliest deprecation).
        this.emit(`tool:${tool.name}@${tool.version}|${tool.sunset_at ?? ''}|${successor ?? ''}`, {
          url: input.url,
          tool: tool.name,
          version: tool.version,
          ...(deprecation === undefined ? {} : { deprecation }),
          ...(toolSunset === undefined ? {} : { sunset: toolSunset }),
          ...(successor === undefined ? {} : { successor }),
        });
      }
      return;
    }
    if (deprecation === undefined) return;
    this.emit(`url:${input.url}|${deprecation}`, {
      url: input.url,
      deprecation,
      ...(sunset === undefined ? {} : { sunset }),
      ...(successors.length === 0 ? {} : { successor: successors.join(', ') }),
    });
  }

  private emit(key: string, notice: DeprecationNotice): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.handler(notice);
  }
}
