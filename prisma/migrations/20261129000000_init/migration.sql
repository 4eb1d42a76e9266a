-- Toolgate registry: teams, API keys, tools, versions, releases and the audit chain.
-- Hand-written (the Prisma schema engine is not used); schema-match.int.test.ts checks it
-- against prisma/schema.prisma.

CREATE TYPE tool_visibility AS ENUM ('private', 'public');
CREATE TYPE tool_version_status AS ENUM ('draft', 'published');

CREATE TABLE teams (
  id         uuid PRIMARY KEY,
  slug       text NOT NULL,
  name       text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX teams_slug_key ON teams (slug);

CREATE TABLE api_keys (
  id           uuid PRIMARY KEY,
  team_id      uuid NOT NULL REFERENCES teams (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  name         text NOT NULL,
  secret_hash  text NOT NULL,
  scopes       text[] NOT NULL DEFAULT '{}',
  created_by   text NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  last_used_at timestamptz(3),
  revoked_at   timestamptz(3)
);
-- GET /v1/api-keys lists a team's keys newest first.
CREATE INDEX api_keys_team_id_created_at_idx ON api_keys (team_id, created_at);

-- array_to_string is only STABLE (element output functions could depend on settings); for
-- text[] it is immutable in fact, and a generated column needs an IMMUTABLE expression.
CREATE FUNCTION toolgate_tags_text(tags text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array_to_string(tags, ' ') $$;

CREATE TABLE tools (
  id          uuid PRIMARY KEY,
  team_id     uuid NOT NULL REFERENCES teams (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  tags        text[] NOT NULL DEFAULT '{}',
  visibility  tool_visibility NOT NULL DEFAULT 'private',
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  updated_at  timestamptz(3) NOT NULL DEFAULT now(),
  -- 'simple' config: tool names and tags are identifiers, stemming them would only blur matches.
  search      tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple'::regconfig, coalesce(name, '')), 'A') ||
    setweight(to_tsvector('simple'::regconfig, coalesce(toolgate_tags_text(tags), '')), 'B') ||
    setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'C')
  ) STORED
);
CREATE UNIQUE INDEX tools_team_id_name_key ON tools (team_id, name);
-- filter ?tag= uses tags @> ARRAY[...]
CREATE INDEX tools_tags_idx ON tools USING gin (tags);
-- listing public tools of every team by name
CREATE INDEX tools_visibility_name_idx ON tools (visibility, name);
CREATE INDEX tools_search_idx ON tools USING gin (search);

CREATE TABLE tool_versions (
  id                uuid PRIMARY KEY,
  tool_id           uuid NOT NULL REFERENCES tools (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  version           text NOT NULL,
  ir                jsonb NOT NULL,
  schema_version    text NOT NULL,
  status            tool_version_status NOT NULL DEFAULT 'published',
  created_by        text NOT NULL,
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  deprecated_at     timestamptz(3),
  sunset_at         timestamptz(3),
  successor_version text,
  brownouts         jsonb NOT NULL DEFAULT '[]'
);
-- Also the arbiter of concurrent publishes of one version: the loser gets 409.
CREATE UNIQUE INDEX tool_versions_tool_id_version_key ON tool_versions (tool_id, version);

CREATE TABLE releases (
  tool_id                 uuid PRIMARY KEY REFERENCES tools (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  stable_version          text,
  canary_version          text,
  canary_percent          integer NOT NULL DEFAULT 0 CHECK (canary_percent BETWEEN 0 AND 100),
  previous_stable_version text,
  updated_by              text NOT NULL,
  updated_at              timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE audit_events (
  -- assigned by the appender under the chain-head lock: gapless, so a deleted row shows as a gap
  seq         bigint PRIMARY KEY,
  id          uuid NOT NULL,
  occurred_at timestamptz(3) NOT NULL,
  actor       text NOT NULL,
  team_id     uuid,
  action      text NOT NULL,
  entity_type text NOT NULL,
  entity_id   text NOT NULL,
  data        jsonb NOT NULL,
  prev_hash   text NOT NULL,
  hash        text NOT NULL
);
CREATE UNIQUE INDEX audit_events_id_key ON audit_events (id);
-- GET /v1/audit filters (each ordered by seq for cursor pagination)
CREATE INDEX audit_events_occurred_at_idx ON audit_events (occurred_at);
CREATE INDEX audit_events_actor_seq_idx ON audit_events (actor, seq);
CREATE INDEX audit_events_entity_type_entity_id_seq_idx ON audit_events (entity_type, entity_id, seq);
CREATE INDEX audit_events_action_seq_idx ON audit_events (action, seq);
CREATE INDEX audit_events_team_id_seq_idx ON audit_events (team_id, seq);

-- The audit trail is append-only: history is evidence, so even the application cannot rewrite it.
CREATE FUNCTION toolgate_audit_events_append_only() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER audit_events_append_only
  BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION toolgate_audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate
  BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION toolgate_audit_events_append_only();

-- The chain head: appends lock this row FOR UPDATE, so one append at a time extends the chain.
CREATE TABLE audit_chain_head (
  id       integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  last_seq bigint NOT NULL,
  hash     text NOT NULL
);
INSERT INTO audit_chain_head (id, last_seq, hash)
  VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');
