/** The outcome of parsing untrusted JSON text: never an exception. */
export type SafeParseJsonResult =
  { ok: true; value: unknown } | { ok: false; error: { message: string; position?: number } };

/** Parses JSON text from a provider; a syntax error becomes a value, never a thrown SyntaxError. */
export function safeParseJson(text: string): SafeParseJsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const match = /position (\d+)/.exec(message);
    return match?.[1] === undefined
      ? { ok: false, error: { message } }
      : { ok: false, error: { message, position: Number(match[1]) } };
  }
}
