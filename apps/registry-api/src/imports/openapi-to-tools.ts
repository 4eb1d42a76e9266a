import {
  EXECUTOR_RESERVED_HEADERS,
  HTTP_PARAMETER_STYLES,
  HttpExecutorConfigSchema,
  isHttpTokenName,
  type HttpExecutorConfig,
  type HttpParameter,
  type SecretRef,
} from '@toolgate/engine';
import { isRecord, setOwnProperty, TagSchema, type ToolBehavior } from '@toolgate/toolir';
import {
  OpenApiSchemaError,
  openApiSchemaToJsonSchema,
  type SchemaConversionOptions,
} from './openapi-schema';
import { sanitizeToolName, uniqueName } from './tool-names';
import type { ToolCandidate } from './tool-version-plan';

/** An operation of the document, as the import reports it. */
export interface OperationRef {
  method: string;
  path: string;
  operation_id: string | null;
}

/** One operation that could not become a tool, and why. */
export interface SkippedOperation extends OperationRef {
  reason: string;
}

export interface OpenApiCandidate extends ToolCandidate {
  operation: OperationRef;
}

export interface OpenApiToToolsOptions {
  /** Replaces the document's server URL (required when that URL is relative). */
  baseUrl?: string | undefined;
  tags?: readonly string[] | undefined;
  namePrefix?: string | undefined;
  /** Put before each security scheme's name to form the secret's name. */
  secretPrefix?: string | undefined;
}

export interface OpenApiToToolsResult {
  baseUrl: string | null;
  tools: OpenApiCandidate[];
  skipped: SkippedOperation[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const EXECUTOR_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Behavior follows HTTP method semantics (RFC 9110 §9.2): safe methods only read, PUT/DELETE are idempotent. */
export function behaviorOfMethod(method: string): ToolBehavior {
  const upper = method.toUpperCase();
  const readonly = upper === 'GET' || upper === 'HEAD';
  return {
    readonly,
    destructive: upper === 'DELETE',
    idempotent: readonly || upper === 'PUT' || upper === 'DELETE',
    open_world: true,
    requires_approval: 'if_destructive',
  };
}

class Unrepresentable extends Error {}

function fail(reason: string): never {
  throw new Unrepresentable(reason);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function serverUrl(
  document: Record<string, unknown>,
  overrideUrl: string | undefined,
): string | null {
  if (overrideUrl !== undefined) return overrideUrl.replace(/\/+$/, '');
  const servers = Array.isArray(document['servers']) ? document['servers'] : [];
  const first: unknown = servers[0];
  if (!isRecord(first) || typeof first['url'] !== 'string') return null;
  let url = first['url'];
  const variables = isRecord(first['variables']) ? first['variables'] : {};
  url = url.replace(/\{([^}]+)\}/g, (match, name: string) => {
    const variable = variables[name];
    return isRecord(variable) && typeof variable['default'] === 'string'
      ? variable['default']
      : match;
  });
  return /^https?:\/\/[^{}]+$/i.test(url) ? url.replace(/\/+$/, '') : null;
}

function tagsOf(operation: Record<string, unknown>, extra: readonly string[]): string[] {
  const tags = new Set(extra);
  const own = Array.isArray(operation['tags']) ? operation['tags'] : [];
  for (const tag of own) {
    if (typeof tag !== 'string') continue;
    const candidate = tag
      .toLowerCase()
      .replace(/[^a-z0-9._:/-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .slice(0, 64);
    if (TagSchema.safeParse(candidate).success) tags.add(candidate);
  }
  return [...tags].slice(0, 32);
}

function describe(operation: Record<string, unknown>, method: string, path: string): string {
  const summary = stringOf(operation['summary']);
  const description = stringOf(operation['description']);
  const parts = [summary, description === summary ? undefined : description].filter(
    (part): part is string => part !== undefined,
  );
  const text = parts.length > 0 ? parts.join('\n\n') : `${method.toUpperCase()} ${path}`;
  return text.slice(0, 16_384);
}

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: unknown;
  description: string | undefined;
  /** Serialized as a media type (`content`), not with a style. */
  content: boolean;
  style: unknown;
  explode: unknown;
  allowReserved: unknown;
}

/** Path-level parameters apply unless the operation redefines the same name and location. */
function parametersOf(
  pathItem: Record<string, unknown>,
  operation: Record<string, unknown>,
): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const list of [pathItem['parameters'], operation['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      if (!isRecord(raw) || typeof raw['name'] !== 'string' || typeof raw['in'] !== 'string')
        continue;
      let schema = raw['schema'];
      if (schema === undefined && isRecord(raw['content'])) {
        const media = Object.entries(raw['content']).find(([type]) => JSON_MEDIA_TYPE.test(type));
        schema = media !== undefined && isRecord(media[1]) ? media[1]['schema'] : undefined;
      }
      byKey.set(`${raw['in']}:${raw['name']}`, {
        name: raw['name'],
        in: raw['in'],
        required: raw['required'] === true || raw['in'] === 'path',
        schema: schema ?? {},
        description: stringOf(raw['description']),
        content: raw['schema'] === undefined && isRecord(raw['content']),
        style: raw['style'],
        explode: raw['explode'],
        allowReserved: raw['allowReserved'],
      });
    }
  }
  return [...byKey.values()];
}

function convertSchema(
  schema: unknown,
  context: { version: '3.0' | '3.1'; where: string } & SchemaConversionOptions,
): unknown {
  const { version, where, ...options } = context;
  try {
    return openApiSchemaToJsonSchema(schema, version, options);
  } catch (error) {
    if (error instanceof OpenApiSchemaError) fail(`${where}: ${error.message}`);
    throw error;
  }
}

function withDescription(schema: unknown, description: string | undefined): unknown {
  if (description === undefined || !isRecord(schema) || 'description' in schema) return schema;
  return { ...schema, description };
}

interface SecurityChoice {
  headers: Record<string, SecretRef>;
  /** API keys the scheme sends in the query string (`in: query`). */
  query: Record<string, SecretRef>;
  schemes: string[];
}

/** The first alternative of the operation's security requirements that the executor can send as headers. */
function chooseSecurity(
  document: Record<string, unknown>,
  operation: Record<string, unknown>,
  secretPrefix: string,
): SecurityChoice {
  const requirements = operation['security'] ?? document['security'];
  if (!Array.isArray(requirements) || requirements.length === 0)
    return { headers: {}, query: {}, schemes: [] };
  const components = isRecord(document['components']) ? document['components'] : {};
  const schemes = isRecord(components['securitySchemes']) ? components['securitySchemes'] : {};
  const reasons: string[] = [];
  for (const requirement of requirements) {
    if (!isRecord(requirement)) continue;
    const headers: Record<string, SecretRef> = {};
    const query: Record<string, SecretRef> = {};
    let usable = true;
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      const secret = `${secretPrefix}${name}`;
      if (!isRecord(scheme)) {
        usable = false;
        reasons.push(`security scheme "${name}" is not defined`);
        break;
      }
      const type = scheme['type'];
      if (type === 'apiKey' && scheme['in'] === 'header' && typeof scheme['name'] === 'string') {
        headers[scheme['name']] = { secret };
      } else if (
        type === 'apiKey' &&
        scheme['in'] === 'query' &&
        typeof scheme['name'] === 'string'
      ) {
        query[scheme['name']] = { secret };
      } else if (type === 'http' && typeof scheme['scheme'] === 'string') {
        const httpScheme = scheme['scheme'].toLowerCase();
        const prefix =
          httpScheme === 'bearer'
            ? 'Bearer '
            : httpScheme === 'basic'
              ? 'Basic '
              : `${scheme['scheme']} `;
        headers['Authorization'] = { secret, prefix };
      } else if (type === 'oauth2' || type === 'openIdConnect') {
        headers['Authorization'] = { secret, prefix: 'Bearer ' };
      } else {
        usable = false;
        reasons.push(
          `security scheme "${name}" (${String(type)} in ${String(scheme['in'])}) cannot be sent as a header or query secret`,
        );
        break;
      }
    }
    if (usable) return { headers, query, schemes: Object.keys(requirement) };
  }
  fail(`no security requirement can be met with header or query secrets: ${reasons.join('; ')}`);
}

/** A request body the http executor can send: JSON, else a form of named values. */
interface RequestBody {
  schema: unknown;
  required: boolean;
  encoding: 'json' | 'form' | 'multipart';
}

const FORM_MEDIA_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;
const MULTIPART_MEDIA_TYPE = /^multipart\/form-data\s*(?:;|$)/i;

function requestBodyOf(operation: Record<string, unknown>): RequestBody | undefined {
  const body = operation['requestBody'];
  if (!isRecord(body)) return undefined;
  const content = isRecord(body['content']) ? body['content'] : {};
  const entries = Object.entries(content);
  const json = entries.find(([type]) => JSON_MEDIA_TYPE.test(type));
  const form = entries.find(([type]) => FORM_MEDIA_TYPE.test(type));
  const multipart = entries.find(([type]) => MULTIPART_MEDIA_TYPE.test(type));
  const chosen = json ?? form ?? multipart;
  if (chosen === undefined) {
    const types = entries.map(([type]) => type).join(', ') || 'none';
    fail(
      `the request body has no JSON, form-urlencoded or multipart/form-data media type (${types}); the http executor sends those only`,
    );
  }
  const media = chosen[1];
  return {
    schema: isRecord(media) ? (media['schema'] ?? {}) : {},
    required: body['required'] === true,
    encoding: json !== undefined ? 'json' : form !== undefined ? 'form' : 'multipart',
  };
}

type ParameterLocation = HttpParameter['in'];

const LOCATION_ORDER: Record<ParameterLocation, number> = {
  path: 0,
  query: 1,
  header: 2,
  cookie: 3,
};
// OpenAPI 3.x Parameter Object: header parameters named Accept, Content-Type or Authorization SHALL be ignored.
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function isLocation(value: string): value is ParameterLocation {
  return Object.hasOwn(LOCATION_ORDER, value);
}

/** The tool's arguments as they are built: JSON Schema properties, where each goes, and what was lost. */
interface ArgumentShape {
  properties: Record<string, unknown>;
  required: string[];
  locations: Array<{ name: string; in: string; argument: string }>;
  warnings: string[];
  /** The recursive schemas of the operation, the tool's root `$defs`. */
  defs: Record<string, unknown>;
}

/**
 * An argument name for a wire name: non-identifier characters become `_`; when that name is
 * taken by an earlier parameter (path before query before header before cookie), the location
 * is put before it (`query_id`), then a number after it (`query_id_2`).
 */
function claimArgument(shape: ArgumentShape, wireName: string, location: string): string {
  const base = wireName.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=\d|$)/, '_');
  if (!Object.hasOwn(shape.properties, base)) return base;
  return uniqueName(`${location}_${base}`, new Set(Object.keys(shape.properties)));
}

function httpParameterOf(parameter: Parameter, location: ParameterLocation, where: string) {
  const mapped: HttpParameter = { in: location };
  if (parameter.style !== undefined) {
    if (
      typeof parameter.style !== 'string' ||
      !HTTP_PARAMETER_STYLES[location].has(parameter.style)
    )
      fail(
        `the ${where} has style ${JSON.stringify(parameter.style)}, which the http executor does not send`,
      );
    mapped.style = parameter.style as NonNullable<HttpParameter['style']>;
  }
  if (typeof parameter.explode === 'boolean') mapped.explode = parameter.explode;
  if (mapped.style === 'deepObject' && mapped.explode === false)
    fail(`the ${where} has style deepObject without explode, which OpenAPI leaves undefined`);
  if (location === 'query' && parameter.allowReserved === true) mapped.allow_reserved = true;
  return mapped;
}

/** A header or cookie parameter the request cannot carry: fatal when required, else left out with a warning. */
function dropParameter(shape: ArgumentShape, parameter: Parameter, why: string): void {
  const where = `${parameter.in} parameter "${parameter.name}"`;
  if (parameter.required) fail(`the required ${where} cannot be sent: ${why}`);
  shape.warnings.push(`the optional ${where} is left out: ${why}`);
}

/** Maps the operation's parameters to arguments and their `parameters` entries in the executor config. */
function mapParameters(
  shape: ArgumentShape,
  context: { path: string; version: '3.0' | '3.1'; security: SecurityChoice },
  list: Parameter[],
): { parameters: Record<string, HttpParameter>; legacyQuery: boolean } {
  const parameters: Record<string, HttpParameter> = {};
  const securityHeaders = new Set(
    Object.keys(context.security.headers).map((name) => name.toLowerCase()),
  );
  const pathNames = new Set<string>();
  let legacyQuery = false;
  const ordered = [...list].sort(
    (left, right) =>
      (isLocation(left.in) ? LOCATION_ORDER[left.in] : 9) -
      (isLocation(right.in) ? LOCATION_ORDER[right.in] : 9),
  );
  for (const parameter of ordered) {
    const where = `${parameter.in} parameter "${parameter.name}"`;
    const location = parameter.in;
    if (!isLocation(location)) fail(`the ${where} has an unknown location`);
    if (location === 'path') {
      if (!context.path.includes(`{${parameter.name}}`))
        fail(`the ${where} does not appear in the path`);
      pathNames.add(parameter.name);
    }
    if (location === 'header' || location === 'cookie') {
      const lower = parameter.name.toLowerCase();
      if (location === 'header' && IGNORED_HEADERS.has(lower)) {
        shape.warnings.push(`the ${where} is ignored, as OpenAPI requires for ${parameter.name}`);
        continue;
      }
      if (location === 'header' && securityHeaders.has(lower)) {
        shape.warnings.push(`the ${where} is left out: the security scheme's secret fills it`);
        continue;
      }
      if (!isHttpTokenName(parameter.name)) {
        dropParameter(shape, parameter, 'its name is not a valid token');
        continue;
      }
      if (location === 'header' && EXECUTOR_RESERVED_HEADERS.has(lower)) {
        dropParameter(shape, parameter, 'the http executor sets that header itself');
        continue;
      }
    }
    const schema = withDescription(
      convertSchema(parameter.schema, { version: context.version, where, defs: shape.defs }),
      parameter.description,
    );
    let argument: string;
    if (parameter.content) {
      // A media-type parameter is JSON text; the executor's unmapped query arguments are sent so.
      if (location !== 'query')
        fail(
          `the ${where} is serialized as a media type (content), which the http executor sends in the query only`,
        );
      if (Object.hasOwn(shape.properties, parameter.name))
        fail(`two parameters are both named "${parameter.name}"`);
      argument = parameter.name;
      legacyQuery = true;
    } else {
      argument = claimArgument(shape, parameter.name, location);
      const mapped = httpParameterOf(parameter, location, where);
      if (argument !== parameter.name) mapped.name = parameter.name;
      setOwnProperty(parameters, argument, mapped);
    }
    setOwnProperty(shape.properties, argument, schema);
    if (parameter.required) shape.required.push(argument);
    shape.locations.push({ name: parameter.name, in: location, argument });
  }
  for (const match of context.path.matchAll(/\{([^}]*)\}/g)) {
    if (!pathNames.has(match[1] ?? ''))
      fail(`the path placeholder ${match[0]} has no path parameter`);
  }
  return { parameters, legacyQuery };
}

/**
 * A plain object body spreads its properties as arguments (sent as the remaining arguments);
 * any other body (array, primitive, composition), or an object body with a property named like
 * a parameter, is one argument `body` (`request_body` when a parameter took `body`).
 */
const FILE_PART_PROPERTIES = {
  filename: { type: 'string' },
  content_type: { type: 'string', description: 'e.g. application/pdf' },
};

/** A file as a tool argument: its bytes as base64, or a URL to fetch them from, and what the part says of it. */
const FILE_ARGUMENT_SCHEMA = {
  anyOf: [
    {
      type: 'object',
      properties: {
        base64: {
          type: 'string',
          contentEncoding: 'base64',
          description: "The file's bytes, base64.",
        },
        ...FILE_PART_PROPERTIES,
      },
      required: ['base64'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          format: 'uri',
          description: 'An http(s) URL the gateway fetches the file from.',
        },
        ...FILE_PART_PROPERTIES,
      },
      required: ['url'],
      additionalProperties: false,
    },
  ],
};

/** OpenAPI's file fields: `format: binary` (3.0), or `contentMediaType` without an encoding (3.1). */
function isFileSchema(schema: unknown): boolean {
  if (!isRecord(schema) || schema['type'] !== 'string') return false;
  return (
    schema['format'] === 'binary' ||
    (typeof schema['contentMediaType'] === 'string' && schema['contentEncoding'] === undefined)
  );
}

/**
 * Rewrites a multipart body's file properties (one file, or an array of them) as file arguments
 * and returns their names.
 */
function fileFieldsOf(schema: Record<string, unknown>): string[] {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const files: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property)) continue;
    const description =
      typeof property['description'] === 'string' ? { description: property['description'] } : {};
    if (isFileSchema(property)) {
      setOwnProperty(properties, name, { ...FILE_ARGUMENT_SCHEMA, ...description });
      files.push(name);
    } else if (property['type'] === 'array' && isFileSchema(property['items'])) {
      setOwnProperty(properties, name, {
        type: 'array',
        items: FILE_ARGUMENT_SCHEMA,
        ...description,
      });
      files.push(name);
    }
  }
  return files;
}

function mapBody(
  shape: ArgumentShape,
  version: '3.0' | '3.1',
  body: RequestBody | undefined,
): { mode: NonNullable<HttpExecutorConfig['body']>; closed: boolean; files: string[] } {
  if (body === undefined) return { mode: 'none', closed: true, files: [] };
  const omitted: string[] = [];
  const schema = convertSchema(body.schema, {
    version,
    where: 'the request body',
    request: { omitted },
    defs: shape.defs,
  });
  if (omitted.length > 0) {
    shape.warnings.push(
      `read-only body properties are not offered to the model (the server sets them): ${omitted.join(', ')}`,
    );
  }
  const plainObject =
    isRecord(schema) &&
    (schema['type'] === 'object' ||
      (schema['type'] === undefined && isRecord(schema['properties']))) &&
    !['allOf', 'anyOf', 'oneOf'].some((keyword) => keyword in schema);
  if (body.encoding !== 'json' && !plainObject)
    fail(
      `a ${body.encoding === 'form' ? 'form-urlencoded' : 'multipart/form-data'} request body must be an object of named values`,
    );
  const files = body.encoding === 'multipart' && isRecord(schema) ? fileFieldsOf(schema) : [];
  const bodyProperties = plainObject && isRecord(schema['properties']) ? schema['properties'] : {};
  const collisions = Object.keys(bodyProperties).filter((name) =>
    Object.hasOwn(shape.properties, name),
  );
  if (plainObject && collisions.length === 0) {
    for (const [name, property] of Object.entries(bodyProperties)) {
      setOwnProperty(shape.properties, name, property);
      shape.locations.push({ name, in: 'body', argument: name });
    }
    const bodyRequired = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
    if (body.required)
      for (const name of bodyRequired) if (typeof name === 'string') shape.required.push(name);
    if (schema['additionalProperties'] !== undefined && schema['additionalProperties'] !== false) {
      shape.warnings.push('additional body properties are not offered to the model');
    }
    return { mode: 'remaining_arguments', closed: false, files };
  }
  const argument = Object.hasOwn(shape.properties, 'body')
    ? uniqueName('request_body', new Set(Object.keys(shape.properties)))
    : 'body';
  if (collisions.length > 0)
    shape.warnings.push(
      `the request body is the "${argument}" argument: its properties ${collisions.map((name) => `"${name}"`).join(', ')} have the names of parameters`,
    );
  setOwnProperty(shape.properties, argument, schema);
  if (body.required) shape.required.push(argument);
  shape.locations.push({ name: 'requestBody', in: 'body', argument });
  return { mode: { argument }, closed: true, files };
}

function convertOperation(
  context: { document: Record<string, unknown>; version: '3.0' | '3.1'; baseUrl: string | null },
  target: {
    method: string;
    path: string;
    pathItem: Record<string, unknown>;
    operation: Record<string, unknown>;
  },
  options: OpenApiToToolsOptions,
): Omit<OpenApiCandidate, 'name' | 'operation'> {
  const { document, version, baseUrl } = context;
  const { method, path, pathItem, operation } = target;
  const httpMethod = method.toUpperCase();
  if (!EXECUTOR_METHODS.has(httpMethod))
    fail(`the http executor does not send ${httpMethod} requests`);
  if (baseUrl === null) {
    fail('the document has no absolute http(s) server URL; pass base_url');
  }
  const security = chooseSecurity(document, operation, options.secretPrefix ?? '');
  const shape: ArgumentShape = {
    properties: {},
    required: [],
    locations: [],
    warnings: [],
    defs: {},
  };
  const mapped = mapParameters(
    shape,
    { path, version, security },
    parametersOf(pathItem, operation),
  );
  const requestBody = requestBodyOf(operation);
  const body = mapBody(shape, version, requestBody);
  if (mapped.legacyQuery && body.mode !== 'none')
    fail(
      'a query parameter serialized as a media type (content) and a request body cannot both be sent',
    );
  const { properties, required, locations, warnings } = shape;
  const executor: HttpExecutorConfig = {
    kind: 'http',
    method: httpMethod as HttpExecutorConfig['method'],
    url: `${baseUrl}${path}`,
    headers: security.headers,
    ...(Object.keys(security.query).length > 0 ? { query_params: security.query } : {}),
    ...(Object.keys(mapped.parameters).length > 0 ? { parameters: mapped.parameters } : {}),
    body: body.mode,
    ...(requestBody === undefined || requestBody.encoding === 'json'
      ? {}
      : { body_encoding: requestBody.encoding }),
    ...(body.files.length > 0 ? { files: body.files } : {}),
    query: mapped.legacyQuery ? 'remaining_arguments' : 'none',
    max_response_bytes: 1024 * 1024,
  };
  // The engine reads the config at call time; one it would refuse must not be stored.
  const checked = HttpExecutorConfigSchema.safeParse(executor);
  if (!checked.success)
    fail(
      `the executor config is invalid: ${checked.error.issues.map((issue) => issue.message).join('; ')}`,
    );
  const parameters: Record<string, unknown> = { type: 'object', properties };
  if (required.length > 0) parameters['required'] = [...new Set(required)];
  if (Object.keys(shape.defs).length > 0) parameters['$defs'] = shape.defs;
  if (body.closed) parameters['additionalProperties'] = false;
  return {
    description: describe(operation, method, path),
    parameters,
    behavior: behaviorOfMethod(method),
    tags: tagsOf(operation, options.tags ?? []),
    protocolMeta: {
      toolgate: {
        executor,
        source: {
          kind: 'openapi',
          method: httpMethod,
          path,
          operation_id: stringOf(operation['operationId']) ?? null,
          parameters: locations,
          security_schemes: security.schemes,
        },
      },
    },
    warnings,
  };
}

/**
 * One tool per operation of a validated, dereferenced OpenAPI 3.x document: arguments from the
 * path/query/header/cookie parameters and the JSON request body, an `http` executor whose
 * `parameters` mapping says where each argument goes (with the document's style and explode),
 * security as header or query-string secrets. Argument names: a parameter's name with non-identifier characters
 * as `_`; on a clash the earlier location keeps the name (path, query, header, cookie) and the
 * later one is prefixed with its location (`query_id`). A plain object body spreads its
 * properties as arguments; a non-object body, or one with a property named like a parameter, is
 * the single argument `body`. Operations the executor cannot send are skipped with a reason,
 * never half-imported.
 */
export function openApiToTools(
  document: Record<string, unknown>,
  options: OpenApiToToolsOptions = {},
): OpenApiToToolsResult {
  const version = String(document['openapi']).startsWith('3.1') ? '3.1' : '3.0';
  const baseUrl = serverUrl(document, options.baseUrl);
  const tools: OpenApiCandidate[] = [];
  const skipped: SkippedOperation[] = [];
  const taken = new Set<string>();
  const paths = isRecord(document['paths']) ? document['paths'] : {};
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      const operationId = stringOf(operation['operationId']) ?? null;
      const ref: OperationRef = { method: method.toUpperCase(), path, operation_id: operationId };
      try {
        const converted = convertOperation(
          { document, version, baseUrl },
          { method, path, pathItem, operation },
          options,
        );
        const base = sanitizeToolName(
          `${options.namePrefix ?? ''}${operationId ?? `${method}_${path}`}`,
        );
        const name = uniqueName(base, taken);
        taken.add(name);
        tools.push({ ...converted, name, operation: ref });
      } catch (error) {
        if (!(error instanceof Unrepresentable)) throw error;
        skipped.push({ ...ref, reason: error.message });
      }
    }
  }
  return { baseUrl, tools, skipped };
}
