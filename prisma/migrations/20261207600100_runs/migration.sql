-- Durable runs: a run groups the steps of one agent task (ReAct turns or a plan); each step is a
-- checkpointed batch of ordinary call records, linked by calls.run_step_id.
CREATE TYPE run_mode AS ENUM ('react', 'plan');
CREATE TYPE run_status AS ENUM ('running', 'awaiting_approval', 'awaiting_decision', 'succeeded', 'failed', 'cancelled');
CREATE TYPE run_step_status AS ENUM ('pending', 'running', 'succeeded', 'failed', 'outcome_unknown', 'skipped', 'cancelled');

CREATE TABLE runs (
  id UUID NOT NULL PRIMARY KEY,
  team_id UUID NOT NULL REFERENCES teams(id) ON DELETE RESTRICT ON UPDATE CASCADE,
  key_id UUID,
  actor TEXT NOT NULL,
  conversation_id TEXT,
  mode run_mode NOT NULL,
  status run_status NOT NULL DEFAULT 'running',
  metadata JSONB,
  failed_step TEXT,
  reason JSONB,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX runs_team_id_created_at_id_idx ON runs (team_id, created_at, id);
CREATE INDEX runs_status_idx ON runs (status);

CREATE TABLE run_steps (
  id UUID NOT NULL PRIMARY KEY,
  run_id UUID NOT NULL REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE,
  name TEXT NOT NULL,
  position INTEGER NOT NULL,
  provider TEXT,
  planned_calls JSONB,
  depends_on TEXT[] NOT NULL DEFAULT '{}',
  status run_step_status NOT NULL DEFAULT 'pending',
  attempt INTEGER NOT NULL DEFAULT 1,
  reason JSONB,
  created_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  started_at TIMESTAMPTZ(3),
  finished_at TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX run_steps_run_id_name_key ON run_steps (run_id, name);
CREATE INDEX run_steps_run_id_position_idx ON run_steps (run_id, position);

ALTER TABLE calls ADD COLUMN run_step_id UUID REFERENCES run_steps(id) ON DELETE RESTRICT ON UPDATE CASCADE;
-- The call's place in its step (the order of the model's turn, or of the planned calls).
ALTER TABLE calls ADD COLUMN run_step_index INTEGER;
CREATE INDEX calls_run_step_id_idx ON calls (run_step_id);
