-- The Tool Gateway: recorded tool calls, the approvals destructive calls wait for, and Cedar policies.
-- Hand-written like the init migration; database.int.test.ts checks it against prisma/schema.prisma.

CREATE TYPE call_status AS ENUM (
  'queued', 'running', 'awaiting_approval', 'succeeded', 'failed', 'cancelled', 'outcome_unknown'
);
CREATE TYPE approval_status AS ENUM ('pending', 'approved', 'denied', 'expired');

CREATE TABLE calls (
  id               uuid PRIMARY KEY,
  team_id          uuid NOT NULL REFERENCES teams (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  key_id           uuid,
  actor            text NOT NULL,
  conversation_id  text,
  provider         text NOT NULL,
  provider_call_id text NOT NULL,
  tool_id          uuid NOT NULL REFERENCES tools (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  tool_name        text NOT NULL,
  tool_version     text NOT NULL,
  arguments        jsonb NOT NULL,
  arguments_hash   text NOT NULL,
  idempotency_key  text NOT NULL,
  status           call_status NOT NULL DEFAULT 'queued',
  result           jsonb,
  error_code       text,
  attempts         integer NOT NULL DEFAULT 0,
  answered_by      text,
  latency_ms       integer,
  decision_effect  text,
  decision_rule    text,
  policy_revision  text,
  created_at       timestamptz(3) NOT NULL DEFAULT now(),
  started_at       timestamptz(3),
  finished_at      timestamptz(3)
);
-- The arbiter of "executed at most once per idempotency key": a concurrent duplicate loses the
-- insert and reads the winner's row.
CREATE UNIQUE INDEX calls_team_id_idempotency_key_key ON calls (team_id, idempotency_key);
-- GET /v1/calls?status=&tool= lists a team's calls newest first.
CREATE INDEX calls_team_id_created_at_idx ON calls (team_id, created_at);
CREATE INDEX calls_team_id_status_created_at_idx ON calls (team_id, status, created_at);
CREATE INDEX calls_team_id_tool_name_created_at_idx ON calls (team_id, tool_name, created_at);

CREATE TABLE approvals (
  id              uuid PRIMARY KEY,
  -- One approval per call: a second check of the same call finds this row instead of adding one.
  call_id         uuid NOT NULL REFERENCES calls (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  team_id         uuid NOT NULL REFERENCES teams (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  tool_id         uuid NOT NULL,
  tool_version    text NOT NULL,
  arguments_hash  text NOT NULL,
  reason          text NOT NULL,
  policy_reason   text,
  status          approval_status NOT NULL DEFAULT 'pending',
  requested_by    text NOT NULL,
  decided_by      text,
  decision_reason text,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  expires_at      timestamptz(3) NOT NULL,
  decided_at      timestamptz(3),
  consumed_at     timestamptz(3)
);
CREATE UNIQUE INDEX approvals_call_id_key ON approvals (call_id);
-- GET /v1/approvals?status=pending
CREATE INDEX approvals_team_id_status_created_at_idx ON approvals (team_id, status, created_at);

CREATE TABLE policies (
  id         uuid PRIMARY KEY,
  -- 'global' or the team's id as text: one revision sequence per scope.
  scope      text NOT NULL,
  team_id    uuid REFERENCES teams (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  revision   integer NOT NULL CHECK (revision > 0),
  text       text NOT NULL,
  active     boolean NOT NULL DEFAULT false,
  created_by text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX policies_scope_revision_key ON policies (scope, revision);
-- At most one active revision per scope, whatever the application does.
CREATE UNIQUE INDEX policies_one_active_per_scope ON policies (scope) WHERE active;
