import { Inject, Injectable } from '@nestjs/common';
import type { ProtectedResourceMetadata } from '@toolgate/contract';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import type { OAuthScopeMap } from './oauth-settings';
import {
  mcpResourceUrl,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
} from './protected-resource';

/** What a request tells about the URL it was sent to (its Host has passed the origin guard). */
export interface RequestTarget {
  protocol: string;
  host: string;
}

/** The OAuth settings in force, present only when TOOLGATE_OAUTH_ISSUER is set. */
export interface OAuthResourceSettings {
  issuers: readonly string[];
  scopeMap: OAuthScopeMap;
  audience: string | undefined;
}

/** The MCP endpoint as an OAuth 2.1 protected resource: its URL, audience and metadata. */
@Injectable()
export class OAuthResourceService {
  /** Undefined when OAuth is off: /mcp takes API keys only. */
  readonly settings: OAuthResourceSettings | undefined;
  private readonly publicUrl: string | undefined;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.publicUrl = config.TOOLGATE_PUBLIC_URL;
    const scopeMap = config.TOOLGATE_OAUTH_SCOPE_MAP;
    // The config schema requires a scope map whenever an issuer is set.
    this.settings =
      config.TOOLGATE_OAUTH_ISSUER.length === 0 || scopeMap === undefined
        ? undefined
        : {
            issuers: config.TOOLGATE_OAUTH_ISSUER,
            scopeMap,
            audience: config.TOOLGATE_OAUTH_AUDIENCE,
          };
  }

  resourceOf(target: RequestTarget): string {
    return mcpResourceUrl(this.publicUrl, target);
  }

  /** The `aud` a token must carry: the configured audience, else the resource URL (RFC 8707). */
  audienceOf(target: RequestTarget): string {
    return this.settings?.audience ?? this.resourceOf(target);
  }

  /** The metadata URL a challenge names; undefined when OAuth is off. */
  metadataUrlOf(target: RequestTarget): string | undefined {
    if (this.settings === undefined) return undefined;
    return protectedResourceMetadataUrl(this.resourceOf(target));
  }

  metadataOf(settings: OAuthResourceSettings, target: RequestTarget): ProtectedResourceMetadata {
    return protectedResourceMetadata({
      resource: this.resourceOf(target),
      issuers: settings.issuers,
      scopes: Object.keys(settings.scopeMap.scopes),
    });
  }
}

/** The scheme and Host of a Fastify request, as `RequestTarget`. */
export function requestTargetOf(request: {
  protocol: string;
  headers: { host?: string | undefined };
}): RequestTarget {
  return { protocol: request.protocol, host: request.headers.host ?? 'localhost' };
}
