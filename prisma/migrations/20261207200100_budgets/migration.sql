-- Budgets: a spending limit of a team or of one API key per UTC day or month, in US dollars.
-- Past soft_usd calls run with a warning; past hard_usd they are refused (budget_exceeded). The
-- spend is counted in Redis (or memory), not here; the call path reads these rows from its catalog.
CREATE TABLE budgets (
  id          uuid PRIMARY KEY,
  -- The team the budget is for, or the team of the key it is for (the catalog loads per team).
  team_id     uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE ON UPDATE CASCADE,
  scope       text NOT NULL CHECK (scope IN ('team', 'key')),
  subject_id  uuid NOT NULL,
  period      text NOT NULL CHECK (period IN ('day', 'month')),
  soft_usd    double precision CHECK (soft_usd >= 0),
  hard_usd    double precision CHECK (hard_usd >= 0),
  created_by  text NOT NULL,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  updated_at  timestamptz(3) NOT NULL DEFAULT now(),
  CHECK (soft_usd IS NOT NULL OR hard_usd IS NOT NULL)
);
CREATE UNIQUE INDEX budgets_scope_subject_id_period_key ON budgets (scope, subject_id, period);
CREATE INDEX budgets_team_id_idx ON budgets (team_id);
