import { isRecord, setOwnProperty } from '@toolgate/toolir';
import { FormData } from 'undici';
import { ToolExecutionError } from './executor';
import type { HttpExecutorConfig, HttpParameter } from '@toolgate/contract';

/** The request parts filled from the arguments listed in a config's `parameters`. */
export interface PlacedParameters {
  /** The URL template with the mapped `{name}` placeholders filled. */
  urlTemplate: string;
  /** Encoded `name=value` pairs, in argument order, for the end of the query string. */
  query: string[];
  /** Header values by wire name. */
  headers: Record<string, string>;
  /** `name=value` pairs for the Cookie header. */
  cookies: string[];
  /** The arguments not listed in `parameters` (nor the body argument), for the legacy rules. */
  unmapped: Record<string, unknown>;
}

// RFC 3986 §2.2 reserved characters, which encodeURIComponent escapes.
const ESCAPED_RESERVED = /%(?:3A|2F|3F|23|5B|5D|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/gi;

/**
 * RFC 9110 §5.5: a field value holds no CR, LF, NUL or other control character except HTAB;
 * code points above U+00FF cannot be sent as header bytes either.
 */
function isSendableInHeader(text: string): boolean {
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x09) || code === 0x7f || code > 0xff) return false;
  }
  return true;
}

function encode(text: string, allowReserved = false): string {
  const encoded = encodeURIComponent(text);
  return allowReserved ? encoded.replace(ESCAPED_RESERVED, decodeURIComponent) : encoded;
}

/** An argument value as request text: a scalar as is, absent as empty, an array or object (where no style applies) as JSON text. */
export function argumentText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : JSON.stringify(value);
}

/**
 * An object body as `application/x-www-form-urlencoded` (what form APIs such as Stripe's read):
 * `name=value` per property, arrays as repeated names, nested objects as `name[key]`; `null` and
 * absent values are left out, as a form would not send them.
 */
export function formBody(value: unknown): string {
  const fields = namedValues(value, 'a form body');
  const form = new URLSearchParams();
  const add = (name: string, item: unknown): void => {
    if (item === null || item === undefined) return;
    if (Array.isArray(item)) for (const element of item) add(name, element);
    else if (typeof item === 'object')
      for (const [key, nested] of Object.entries(item)) add(`${name}[${key}]`, nested);
    else form.append(name, argumentText(item));
  };
  for (const [name, item] of Object.entries(fields)) add(name, item);
  return form.toString();
}

/** A form's or multipart body's fields: only an object has named values. */
function namedValues(value: unknown, what: string): Record<string, unknown> {
  if (!isRecord(value)) invalid(`${what} must be an object of named values`);
  return value;
}

/** One file of a multipart body, as an argument carries it: its bytes, or where to fetch them. */
export type FileArgument = { filename?: string; content_type?: string } & (
  { base64: string } | { url: URL }
);

/** A file the executor fetched for a part: its bytes and the type its server declared. */
export interface FetchedFile {
  bytes: Uint8Array<ArrayBuffer>;
  contentType?: string;
}

function fileOf(field: string, value: unknown): FileArgument {
  if (!isRecord(value))
    invalid(`"${field}" must be a file: {base64 | url, filename?, content_type?}`);
  const named = {
    ...(typeof value['filename'] === 'string' ? { filename: value['filename'] } : {}),
    ...(typeof value['content_type'] === 'string' ? { content_type: value['content_type'] } : {}),
  };
  const { base64, url } = value;
  if (typeof base64 === 'string' && url === undefined) {
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(base64)) invalid(`"${field}".base64 is not base64`);
    return { ...named, base64 };
  }
  if (typeof url === 'string' && base64 === undefined) {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (parsed === undefined || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
      invalid(`"${field}".url must be an http(s) URL`);
    return { ...named, url: parsed };
  }
  return invalid(`"${field}" must carry either base64 or url`);
}

// A fetched file's name when the argument gives none: the last segment of its URL's path.
function nameFromUrl(url: URL, field: string): string {
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  return last === '' ? field : last;
}

/**
 * An object body as `multipart/form-data`: a part per property (arrays as repeated parts, objects
 * as JSON text, `null` and absent left out), the `files` properties as files, decoded from base64
 * or fetched from their URL with `fetchFile` (the executor's, under its egress rules).
 */
export async function multipartBody(
  value: unknown,
  files: ReadonlySet<string>,
  fetchFile: (url: URL, field: string) => Promise<FetchedFile>,
): Promise<FormData> {
  const fields = namedValues(value, 'a multipart body');
  const form = new FormData();
  for (const [name, item] of Object.entries(fields)) {
    if (item === null || item === undefined) continue;
    const items: unknown[] =
      Array.isArray(item) && (files.has(name) || !item.some(isRecord)) ? item : [item];
    for (const part of items) {
      if (!files.has(name)) {
        form.append(name, argumentText(part));
        continue;
      }
      const file = fileOf(name, part);
      const fetched: FetchedFile =
        'url' in file
          ? await fetchFile(file.url, name)
          : { bytes: Buffer.from(file.base64, 'base64') };
      const blob = new Blob([fetched.bytes], {
        type: file.content_type ?? fetched.contentType ?? 'application/octet-stream',
      });
      form.append(
        name,
        blob,
        file.filename ?? ('url' in file ? nameFromUrl(file.url, name) : name),
      );
    }
  }
  return form;
}

function invalid(message: string): never {
  throw new ToolExecutionError({ code: 'invalid_arguments', message });
}

/** OpenAPI `simple` style (path and header): `a,b,c`; objects `k,v,k,v`, exploded `k=v,k=v`. */
function serializeSimple(
  value: unknown,
  explode: boolean,
  encodePart: (text: string) => string,
): string {
  if (Array.isArray(value)) return value.map((item) => encodePart(argumentText(item))).join(',');
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([key, item]) =>
        explode
          ? `${encodePart(key)}=${encodePart(argumentText(item))}`
          : `${encodePart(key)},${encodePart(argumentText(item))}`,
      )
      .join(',');
  }
  return encodePart(argumentText(value));
}

/**
 * A path argument in its OpenAPI style (RFC 6570): `simple` `a,b`; `label` `.a,b` (exploded
 * `.a.b`, objects `.k=v.k=v`); `matrix` `;name=a,b` (exploded `;name=a;name=b`, objects `;k=v;k=v`).
 */
function serializePath(
  name: string,
  value: unknown,
  options: { style: string; explode: boolean },
): string {
  const part = (text: string): string => encode(text);
  const { style, explode } = options;
  if (style === 'label') {
    if (explode && (Array.isArray(value) || isRecord(value))) {
      const items = Array.isArray(value)
        ? value.map((item) => part(argumentText(item)))
        : Object.entries(value).map(([key, item]) => `${part(key)}=${part(argumentText(item))}`);
      return `.${items.join('.')}`;
    }
    return `.${serializeSimple(value, false, part)}`;
  }
  if (style === 'matrix') {
    if (explode && Array.isArray(value))
      return value.map((item) => `;${part(name)}=${part(argumentText(item))}`).join('');
    if (explode && isRecord(value))
      return Object.entries(value)
        .map(([key, item]) => `;${part(key)}=${part(argumentText(item))}`)
        .join('');
    return `;${part(name)}=${serializeSimple(value, false, part)}`;
  }
  return serializeSimple(value, explode, part);
}

function deepObjectPairs(
  prefix: string,
  value: Record<string, unknown>,
  allowReserved: boolean,
): string[] {
  const pairs: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    const name = `${prefix}[${key}]`;
    if (item === undefined || item === null) continue;
    if (isRecord(item)) pairs.push(...deepObjectPairs(name, item, allowReserved));
    else if (Array.isArray(item))
      for (const element of item)
        pairs.push(
          `${encode(name, allowReserved)}=${encode(argumentText(element), allowReserved)}`,
        );
    else pairs.push(`${encode(name, allowReserved)}=${encode(argumentText(item), allowReserved)}`);
  }
  return pairs;
}

/**
 * OpenAPI query styles: `form` (`id=3&id=4`, or `id=3,4` unexploded), `spaceDelimited` (`id=3%204`),
 * `pipeDelimited` (`id=3%7C4`) and `deepObject` (`color%5BR%5D=100`); an exploded object's
 * properties become pairs of their own. Empty arrays and absent values are left out.
 */
function serializeQuery(argument: string, value: unknown, parameter: HttpParameter): string[] {
  const name = parameter.name ?? argument;
  const style = parameter.style ?? 'form';
  const explode = parameter.explode ?? style === 'form';
  const allowReserved = parameter.allow_reserved ?? false;
  const text = (item: unknown): string => encode(argumentText(item), allowReserved);
  const pair = (key: string, encodedValue: string): string =>
    `${encode(key, allowReserved)}=${encodedValue}`;
  if (value === undefined || value === null) return [];
  if (style === 'deepObject') {
    if (!isRecord(value)) invalid(`argument "${argument}" must be an object (deepObject style)`);
    return deepObjectPairs(name, value, allowReserved);
  }
  // The delimiters are percent-encoded (RFC 3986 allows neither a space nor "|" in a query).
  const delimiter = style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '%7C' : ',';
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    if (explode) return value.map((item) => pair(name, text(item)));
    return [pair(name, value.map(text).join(delimiter))];
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (explode) return entries.map(([key, item]) => pair(key, text(item)));
    return [pair(name, entries.flatMap(([key, item]) => [text(key), text(item)]).join(delimiter))];
  }
  return [pair(name, text(value))];
}

/** OpenAPI `form` style in a Cookie header; values percent-encoded so no `;`, `,` or space leaks (RFC 6265 §4.1.1). */
function serializeCookie(argument: string, value: unknown, parameter: HttpParameter): string[] {
  const name = parameter.name ?? argument;
  const explode = parameter.explode ?? true;
  const text = (item: unknown): string => encode(argumentText(item));
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    return explode
      ? value.map((item) => `${name}=${text(item)}`)
      : [`${name}=${value.map(text).join(',')}`];
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return explode
      ? entries.map(([key, item]) => `${text(key)}=${text(item)}`)
      : [`${name}=${entries.flatMap(([key, item]) => [text(key), text(item)]).join(',')}`];
  }
  return [`${name}=${text(value)}`];
}

function headerText(
  value: unknown,
  target: { argument: string; name: string; explode: boolean },
): string {
  const { argument, name } = target;
  const text = serializeSimple(value, target.explode, (part) => part);
  if (!isSendableInHeader(text))
    invalid(
      `argument "${argument}" cannot be sent in the ${name} header: it contains a line break, a control character or a character outside Latin-1`,
    );
  return text;
}

/**
 * Places the arguments listed in `config.parameters` where the mapping says; throws
 * `invalid_arguments` (non-retryable) for a missing path value or a header value that could
 * inject a line. Arguments not listed are returned in `unmapped`.
 */
export function placeParameters(
  config: Pick<HttpExecutorConfig, 'url' | 'parameters' | 'body'>,
  args: Record<string, unknown>,
): PlacedParameters {
  const mapping = config.parameters ?? {};
  const bodyArgument = typeof config.body === 'object' ? config.body.argument : undefined;
  let urlTemplate = config.url;
  const placed: PlacedParameters = {
    urlTemplate,
    query: [],
    headers: {},
    cookies: [],
    unmapped: {},
  };
  for (const [argument, value] of Object.entries(args)) {
    if (!Object.hasOwn(mapping, argument) && argument !== bodyArgument)
      setOwnProperty(placed.unmapped, argument, value);
  }
  for (const [argument, parameter] of Object.entries(mapping)) {
    const value = Object.hasOwn(args, argument) ? args[argument] : undefined;
    const name = parameter.name ?? argument;
    switch (parameter.in) {
      case 'path': {
        if (value === undefined || value === null || (Array.isArray(value) && value.length === 0))
          invalid(`argument "${argument}" is required to build the request URL`);
        const segment = serializePath(name, value, {
          style: parameter.style ?? 'simple',
          explode: parameter.explode ?? false,
        });
        urlTemplate = urlTemplate.split(`{${name}}`).join(segment);
        break;
      }
      case 'query':
        placed.query.push(...serializeQuery(argument, value, parameter));
        break;
      case 'header':
        if (value !== undefined && value !== null)
          setOwnProperty(
            placed.headers,
            name,
            headerText(value, { argument, name, explode: parameter.explode ?? false }),
          );
        break;
      case 'cookie':
        placed.cookies.push(...serializeCookie(argument, value, parameter));
        break;
    }
  }
  placed.urlTemplate = urlTemplate;
  return placed;
}
