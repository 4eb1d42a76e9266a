declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- how Node's env types are extended
  namespace NodeJS {
    interface ProcessEnv {
      /** Inlined by next.config.ts when the console is built or started. */
      TOOLGATE_TRACE_URL_TEMPLATE?: string;
    }
  }
}

/**
 * The link to a call's trace in the team's tracing backend: `TOOLGATE_TRACE_URL_TEMPLATE` with
 * `{trace_id}` replaced, e.g. `http://localhost:16686/trace/{trace_id}` (Jaeger). Undefined without
 * a template, a trace id, or when the template is not an http(s) URL (never a `javascript:` link).
 */
export function traceUrlOf(
  traceId: string | null,
  template: string | undefined = process.env.TOOLGATE_TRACE_URL_TEMPLATE,
): string | undefined {
  if (traceId === null || template === undefined || !template.includes('{trace_id}'))
    return undefined;
  const url = template.replaceAll('{trace_id}', encodeURIComponent(traceId));
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'http:' || protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
