import { describe, expect, it } from 'vitest';
import {
  scrubCredentials,
  scrubUpstreamText,
  UPSTREAM_TEXT_MAX_CHARS,
} from './scrub-upstream-text';

describe('scrubCredentials', () => {
  it.each([
    ['a bearer token', 'rejected Bearer abc.DEF-123_x~y', 'rejected Bearer [redacted]'],
    ['basic credentials', 'Authorization: Basic dXNlcjpwYXNz==', 'Authorization: Basic [redacted]'],
    [
      "a URL's userinfo",
      'cannot reach https://admin:hunter2@db.internal:5432/x',
      'cannot reach https://[redacted]@db.internal:5432/x',
    ],
    [
      'query tokens',
      'GET https://api.example.com/v1?access_token=abc123&city=Paris&X-Amz-Signature=f00d',
      'GET https://api.example.com/v1?access_token=[redacted]&city=Paris&X-Amz-Signature=[redacted]',
    ],
    [
      'an api key member',
      '{"api_key": "k-9f8e7d", "city": "Paris"}',
      '{"api_key": "[redacted]", "city": "Paris"}',
    ],
    ['a password setting', 'password=s3cr3t; retry later', 'password=[redacted]; retry later'],
    [
      'an OpenAI-style key',
      'key sk-proj-abcdefghijklmnop1234 is revoked',
      'key [redacted] is revoked',
    ],
    [
      'a GitHub token',
      'token ghp_abcdefghijklmnopqrstuvwxyz0123 expired',
      'token [redacted] expired',
    ],
    ['an AWS access key id', 'AKIAIOSFODNN7EXAMPLE denied', '[redacted] denied'],
    ['a JWT', 'bad jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nature_ok', 'bad jwt [redacted]'],
  ])('replaces %s', (_name, text, scrubbed) => {
    expect(scrubCredentials(text, [])).toBe(scrubbed);
  });

  it('replaces the secret values the executor sent, wherever they appear', () => {
    expect(
      scrubCredentials('echo: my-upstream-secret (my-upstream-secret)', ['my-upstream-secret']),
    ).toBe('echo: [redacted] ([redacted])');
  });

  it('leaves ordinary error text alone', () => {
    const text = 'MCP error -32602: unknown city "Pariss"; did you mean "Paris"? (key: city)';
    expect(scrubCredentials(text, [])).toBe(text);
  });
});

describe('scrubUpstreamText', () => {
  it(`cuts the text to ${UPSTREAM_TEXT_MAX_CHARS} characters after scrubbing`, () => {
    const scrubbed = scrubUpstreamText(
      `${'x'.repeat(400)} Bearer ${'t'.repeat(100)} ${'y'.repeat(200)}`,
      [],
    );
    expect(scrubbed).toHaveLength(UPSTREAM_TEXT_MAX_CHARS);
    expect(scrubbed).toContain('Bearer [redacted]');
    expect(scrubbed).not.toContain('ttt');
    expect(scrubbed.endsWith('…')).toBe(true);
    expect(scrubUpstreamText('  short  ', [])).toBe('short');
  });
});
