import { ToolException } from '../problem/tool.exception';

// RFC 6750 §2.1 b64token, bounded: long enough for a JWT access token with many claims.
const BEARER = /^Bearer ([\x21-\x7e]{1,8192})$/i;

/** The token of an `Authorization: Bearer <token>` header, or a 401 saying what is wrong. */
export function readBearerToken(
  header: string | undefined,
  challengeHeaders: Record<string, string> = {},
): string {
  if (header === undefined) {
    throw new ToolException(
      'unauthenticated',
      'Send an API key as `Authorization: Bearer <key>`.',
      {
        headers: challengeHeaders,
      },
    );
  }
  const match = BEARER.exec(header);
  if (!match?.[1]) {
    throw new ToolException('unauthenticated', 'The Authorization header must be `Bearer <key>`.', {
      headers: challengeHeaders,
    });
  }
  return match[1];
}
