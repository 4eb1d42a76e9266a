import { SetMetadata } from '@nestjs/common';
import type { Scope } from './principal';

export const REQUIRED_SCOPES = 'toolgate:required-scopes';
export const PUBLIC_ROUTE = 'toolgate:public-route';

/** The scopes a route needs (all of them); routes without it or `@PublicRoute()` are refused. */
export const RequireScopes = (...scopes: [Scope, ...Scope[]]) =>
  SetMetadata(REQUIRED_SCOPES, scopes);

/** A route that needs no credentials (health probes, the OpenAPI document). */
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);
