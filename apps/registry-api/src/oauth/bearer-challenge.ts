/** What a Bearer challenge (RFC 6750 §3, RFC 9728 §5.1) tells the client. */
export interface BearerChallenge {
  /** Absent when no token was sent (RFC 6750 §3.1: no error code then). */
  error?: 'invalid_token' | 'insufficient_scope' | undefined;
  /** The scopes needed, for `insufficient_scope`. */
  scope?: readonly string[] | undefined;
  /** The Protected Resource Metadata URL, when the server takes OAuth tokens. */
  resourceMetadata?: string | undefined;
}

// RFC 9110 §5.6.4 quoted-string: a backslash escapes `"` and `\`.
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/** The `WWW-Authenticate` value of a 401 or 403 from a Bearer-protected route. */
export function bearerChallenge(challenge: BearerChallenge): string {
  const params: Array<[string, string]> = [['realm', 'toolgate']];
  if (challenge.error !== undefined) params.push(['error', challenge.error]);
  if (challenge.scope !== undefined && challenge.scope.length > 0)
    params.push(['scope', challenge.scope.join(' ')]);
  if (challenge.resourceMetadata !== undefined)
    params.push(['resource_metadata', challenge.resourceMetadata]);
  return `Bearer ${params.map(([name, value]) => `${name}=${quoted(value)}`).join(', ')}`;
}
