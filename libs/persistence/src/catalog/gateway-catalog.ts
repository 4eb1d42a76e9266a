import { toWireName, type Provider } from '@toolgate/adapters';
import { CedarPolicyEngine, allowAllPolicyEngine } from '@toolgate/engine';
import type { PolicyEngine } from '@toolgate/engine';
import type { ToolIR } from '@toolgate/toolir';
import { sql, type SqlPort } from '../sql/sql-port';

/** One version of a catalog tool, as version resolution needs it. */
export interface CatalogVersion {
  version: string;
  status: 'draft' | 'published';
  deprecatedAt: Date | null;
  sunsetAt: Date | null;
  /** The version a deprecation names as the one to move to. */
  successorVersion: string | null;
  /** Stored versions were validated as ToolIR when they were published. */
  ir: ToolIR;
}

/** A tool with its release and versions. */
export interface CatalogTool {
  id: string;
  name: string;
  teamId: string;
  visibility: 'private' | 'public';
  release: {
    stableVersion: string | null;
    canaryVersion: string | null;
    canaryPercent: number;
    /** When the release last changed; with the versions, the generation cached results are keyed on. */
    updatedAt: Date | null;
  } | null;
  versions: CatalogVersion[];
}

/**
 * What a name a model sent on one wire means for a team: the one tool it names, or every tool
 * it could name when several tool names are sent as the same wire name (a tool literally named
 * `orders_refund_71d46ae3` beside `orders.refund`): the caller refuses those rather than guess.
 */
export type WireNameMatch =
  { kind: 'tool'; tool: CatalogTool } | { kind: 'ambiguous'; tools: CatalogTool[] };

/** A spending limit of a team or one of its API keys, as the call path reads it (the `budgets` table). */
export interface CatalogBudget {
  scope: 'team' | 'key';
  /** The team's id for a team budget, the API key's for a key budget. */
  subjectId: string;
  period: 'day' | 'month';
  softUsd: number | null;
  hardUsd: number | null;
}

/** How long an entry may serve without a change notification before it is read again. */
export const DEFAULT_CATALOG_MAX_AGE_MS = 30_000;

interface ToolVersionColumns extends Record<string, unknown> {
  id: string;
  name: string;
  team_id: string;
  visibility: 'private' | 'public';
  stable_version: string | null;
  canary_version: string | null;
  canary_percent: number | null;
  release_updated_at: Date | null;
  has_release: boolean;
  version: string | null;
  status: 'draft' | 'published' | null;
  deprecated_at: Date | null;
  sunset_at: Date | null;
  successor_version: string | null;
  ir: ToolIR | null;
}

interface PolicyColumns extends Record<string, unknown> {
  id: string;
  scope: string;
  text: string;
  revision: number;
}

interface BudgetColumns extends Record<string, unknown> {
  scope: 'team' | 'key';
  subject_id: string;
  period: 'day' | 'month';
  soft_usd: number | null;
  hard_usd: number | null;
}

// Every team's tools of these names: the cache is shared by all teams and filtered per caller.
const TOOLS_BY_NAME = sql(
  'catalog.tools_by_name',
  `SELECT t.id, t.name, t.team_id, t.visibility, r.stable_version, r.canary_version,
          r.canary_percent, r.updated_at AS release_updated_at, r.tool_id IS NOT NULL AS has_release, v.version, v.status,
          v.deprecated_at, v.sunset_at, v.successor_version, v.ir
     FROM tools t
     LEFT JOIN releases r ON r.tool_id = t.id
     LEFT JOIN tool_versions v ON v.tool_id = t.id
    WHERE t.name = ANY($1::text[])`,
);

// Every tool name of every team, for the wire-name index (names only: the tools load by name).
const TOOL_NAMES = sql('catalog.tool_names', 'SELECT DISTINCT name FROM tools');

const VERSION = sql(
  'catalog.version',
  `SELECT t.name, v.ir FROM tool_versions v JOIN tools t ON t.id = v.tool_id
    WHERE v.tool_id = $1 AND v.version = $2`,
);

const POLICIES = sql(
  'catalog.policies',
  'SELECT id, scope, text, revision FROM policies WHERE active AND scope = ANY($1::text[])',
);

// A team's own budgets and its keys' (a key budget's row carries the key's team).
const BUDGETS = sql(
  'catalog.budgets',
  'SELECT scope, subject_id, period, soft_usd, hard_usd FROM budgets WHERE team_id = $1',
);

function toolsOf(rows: readonly ToolVersionColumns[]): Map<string, CatalogTool[]> {
  const tools = new Map<string, CatalogTool>();
  for (const row of rows) {
    let tool = tools.get(row.id);
    if (tool === undefined) {
      tool = {
        id: row.id,
        name: row.name,
        teamId: row.team_id,
        visibility: row.visibility,
        release: row.has_release
          ? {
              stableVersion: row.stable_version,
              canaryVersion: row.canary_version,
              canaryPercent: row.canary_percent ?? 0,
              updatedAt: row.release_updated_at,
            }
          : null,
        versions: [],
      };
      tools.set(row.id, tool);
    }
    if (row.version !== null && row.ir !== null && row.status !== null) {
      tool.versions.push({
        version: row.version,
        status: row.status,
        deprecatedAt: row.deprecated_at,
        sunsetAt: row.sunset_at,
        successorVersion: row.successor_version,
        ir: row.ir,
      });
    }
  }
  const byName = new Map<string, CatalogTool[]>();
  for (const tool of tools.values())
    byName.set(tool.name, [...(byName.get(tool.name) ?? []), tool]);
  return byName;
}

/**
 * The one answer to "which tool does this name mean for this team": the team's own tool wins
 * over another team's public tool of that name; a private tool of another team is never seen.
 */
export function toolForTeam(
  candidates: readonly CatalogTool[],
  teamId: string,
): CatalogTool | undefined {
  let chosen: CatalogTool | undefined;
  for (const tool of candidates) {
    if (tool.teamId === teamId) return tool;
    if (tool.visibility === 'public') chosen ??= tool;
  }
  return chosen;
}

/**
 * Wire name -> the tool names sent under it on `provider`, for the names the wire rewrites only
 * (a name the wire accepts is its own wire name). Built with the adapters' `toWireName`, the
 * function the exports name tools with, so every exported name is found here.
 */
function indexByWireName(names: readonly string[], provider: Provider): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const name of names) {
    const wireName = toWireName(name, provider);
    if (wireName !== name) index.set(wireName, [...(index.get(wireName) ?? []), name]);
  }
  return index;
}

/**
 * Tools, versions, releases and policies in memory, for the call path of every process that runs
 * or records calls (API replicas, workers). A change anywhere clears it through `invalidate`:
 * the registry calls it for changes made here, and the catalog-change notifications
 * (`listenForCatalogChanges`) for changes made by another process. Entries older than `maxAgeMs`
 * are read again, so a lost notification costs staleness for that long, never for ever.
 */
export class GatewayCatalog {
  private toolsByName = new Map<string, Promise<CatalogTool[]>>();
  private versions = new Map<string, Promise<ToolIR | undefined>>();
  private policies = new Map<string, Promise<PolicyEngine>>();
  private budgets = new Map<string, Promise<CatalogBudget[]>>();
  // Per provider, built once per load of the catalog (not per call): see `callableByWireName`.
  private wireNameIndexes = new Map<string, Promise<Map<string, string[]>>>();
  private toolNames = new Map<string, Promise<string[]>>();
  // A policy revision's text never changes, so its compiled engine outlives invalidations.
  private readonly engines = new Map<string, CedarPolicyEngine>();
  private clearedAt: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: SqlPort,
    options: { maxAgeMs?: number; now?: () => number } = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_CATALOG_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
    this.clearedAt = this.now();
  }

  /** Forgets everything; the next lookups read the database again. */
  invalidate(): void {
    this.toolsByName = new Map();
    this.versions = new Map();
    this.policies = new Map();
    this.budgets = new Map();
    this.wireNameIndexes = new Map();
    this.toolNames = new Map();
    this.clearedAt = this.now();
  }

  /** The tool each name means for the team (names without one are left out). */
  async callableTools(names: readonly string[], teamId: string): Promise<Map<string, CatalogTool>> {
    const byName = await this.toolsNamed(names);
    const callable = new Map<string, CatalogTool>();
    for (const [name, candidates] of byName) {
      const tool = toolForTeam(candidates, teamId);
      if (tool !== undefined) callable.set(name, tool);
    }
    return callable;
  }

  /**
   * The tool each name a model sent on `provider` means for the team: a wire name the exports
   * gave out (`orders_refund_71d46ae3` for `orders.refund`) or a tool's own name. Names without a
   * callable tool are left out; a name that several callable tools are sent as is `ambiguous`.
   */
  async callableByWireName(
    provider: Provider,
    names: readonly string[],
    teamId: string,
  ): Promise<Map<string, WireNameMatch>> {
    this.expireIfOld();
    const index = await this.wireNameIndex(provider);
    // The name itself is a candidate too: a name the wire accepts is its own wire name (the index
    // holds rewritten names only), and a model may still send a tool's name as it is.
    const candidatesOf = new Map(
      names.map((name) => [name, [...new Set([name, ...(index.get(name) ?? [])])]] as const),
    );
    const callable = await this.callableTools([...candidatesOf.values()].flat(), teamId);
    const matches = new Map<string, WireNameMatch>();
    for (const [name, candidates] of candidatesOf) {
      const tools = candidates.flatMap((candidate) => {
        const tool = callable.get(candidate);
        return tool === undefined ? [] : [tool];
      });
      const [only] = tools;
      if (only === undefined) continue;
      matches.set(
        name,
        tools.length === 1 ? { kind: 'tool', tool: only } : { kind: 'ambiguous', tools },
      );
    }
    return matches;
  }

  /** A tool the team may call, by name: without a version, its stable one (fallbacks, policy tests). */
  async resolveTool(input: {
    teamId: string;
    name: string;
    version: string | undefined;
  }): Promise<ToolIR | undefined> {
    const tool = (await this.callableTools([input.name], input.teamId)).get(input.name);
    const wanted = input.version ?? tool?.release?.stableVersion ?? undefined;
    return tool?.versions.find((candidate) => candidate.version === wanted)?.ir;
  }

  /**
   * The release generation of the tool a team calls by this name: when the release last changed
   * and what it serves. Cached results are keyed on it, so a promote, a rollback or a canary change
   * misses the entries made before.
   */
  async releaseGeneration(input: { teamId: string; name: string }): Promise<string> {
    const release = (await this.callableTools([input.name], input.teamId)).get(input.name)?.release;
    if (release === undefined || release === null) return 'none';
    return [
      release.updatedAt?.getTime() ?? 0,
      release.stableVersion ?? '',
      release.canaryVersion ?? '',
      release.canaryPercent,
    ].join('|');
  }

  /** The IR of one version of a tool (the version a recorded call resolved to). */
  versionIr(toolId: string, version: string): Promise<ToolIR | undefined> {
    this.expireIfOld();
    const key = `${toolId}@${version}`;
    let entry = this.versions.get(key);
    if (entry === undefined) {
      entry = this.db
        .query<{ name: string; ir: ToolIR }>(VERSION, [toolId, version])
        .then(({ rows }) => rows[0]?.ir);
      this.cache(this.versions, key, entry);
    }
    return entry;
  }

  /** The team's active policy (else the installation's `global` one); allow-all when neither exists. */
  policyFor(teamId: string): Promise<PolicyEngine> {
    this.expireIfOld();
    let entry = this.policies.get(teamId);
    if (entry === undefined) {
      entry = this.db.query<PolicyColumns>(POLICIES, [[teamId, 'global']]).then(({ rows }) => {
        const row = rows.find((candidate) => candidate.scope === teamId) ?? rows[0];
        return row === undefined ? allowAllPolicyEngine : this.engineOf(row);
      });
      this.cache(this.policies, teamId, entry);
    }
    return entry;
  }

  /** The budgets of a team and of its API keys (none: an empty list, cached like any entry). */
  budgetsOf(teamId: string): Promise<CatalogBudget[]> {
    this.expireIfOld();
    let entry = this.budgets.get(teamId);
    if (entry === undefined) {
      entry = this.db.query<BudgetColumns>(BUDGETS, [teamId]).then(({ rows }) =>
        rows.map((row) => ({
          scope: row.scope,
          subjectId: row.subject_id,
          period: row.period,
          // double precision comes back as a number from pg and PGlite alike.
          softUsd: row.soft_usd === null ? null : Number(row.soft_usd),
          hardUsd: row.hard_usd === null ? null : Number(row.hard_usd),
        })),
      );
      this.cache(this.budgets, teamId, entry);
    }
    return entry;
  }

  /** A policy engine that asks for the team's effective policy at each decision. */
  policyEngineFor(teamId: string): PolicyEngine {
    return { decide: async (input) => (await this.policyFor(teamId)).decide(input) };
  }

  /** The compiled engine of a policy revision. */
  engineOf(row: { id: string; text: string; revision: number }): CedarPolicyEngine {
    let engine = this.engines.get(row.id);
    if (engine === undefined) {
      engine = new CedarPolicyEngine(row.text, { revision: String(row.revision) });
      this.engines.set(row.id, engine);
    }
    return engine;
  }

  private async toolsNamed(names: readonly string[]): Promise<Map<string, CatalogTool[]>> {
    this.expireIfOld();
    const wanted = [...new Set(names)];
    const entries = new Map<string, Promise<CatalogTool[]>>();
    const missing: string[] = [];
    for (const name of wanted) {
      const entry = this.toolsByName.get(name);
      if (entry === undefined) missing.push(name);
      else entries.set(name, entry);
    }
    if (missing.length > 0) {
      const loaded = this.db
        .query<ToolVersionColumns>(TOOLS_BY_NAME, [missing])
        .then(({ rows }) => toolsOf(rows));
      for (const name of missing) {
        // Names with no tool are cached too: an unknown name costs no query until the catalog changes.
        const entry = loaded.then((byName) => byName.get(name) ?? []);
        this.cache(this.toolsByName, name, entry);
        entries.set(name, entry);
      }
    }
    const resolved = await Promise.all(
      wanted.map(async (name) => [name, (await entries.get(name)) ?? []] as const),
    );
    return new Map(resolved);
  }

  private wireNameIndex(provider: Provider): Promise<Map<string, string[]>> {
    let entry = this.wireNameIndexes.get(provider);
    if (entry === undefined) {
      entry = this.allToolNames().then((names) => indexByWireName(names, provider));
      this.cache(this.wireNameIndexes, provider, entry);
    }
    return entry;
  }

  private allToolNames(): Promise<string[]> {
    let entry = this.toolNames.get('all');
    if (entry === undefined) {
      entry = this.db
        .query<{ name: string }>(TOOL_NAMES, [])
        .then(({ rows }) => rows.map((row) => row.name));
      this.cache(this.toolNames, 'all', entry);
    }
    return entry;
  }

  /** Caches a load; a failed load is forgotten, so the next lookup tries again. */
  private cache<TValue>(
    map: Map<string, Promise<TValue>>,
    key: string,
    entry: Promise<TValue>,
  ): void {
    map.set(key, entry);
    entry.catch(() => {
      if (map.get(key) === entry) map.delete(key);
    });
  }

  private expireIfOld(): void {
    if (this.now() - this.clearedAt >= this.maxAgeMs) this.invalidate();
  }
}
