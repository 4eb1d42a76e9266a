-- Compensation and optimistic concurrency in runs. A compensation is a chain of ordinary plan-like
-- steps (one compensating call each, latest write first), so a crash resumes it like any step.
ALTER TYPE run_status ADD VALUE IF NOT EXISTS 'compensating' AFTER 'awaiting_decision';
ALTER TABLE runs ADD COLUMN compensation TEXT NOT NULL DEFAULT 'manual';
-- Every compensation asked of the run: [{requested_by, requested_at, failed_step, scope, steps, cannot_be_undone}].
ALTER TABLE runs ADD COLUMN compensations JSONB NOT NULL DEFAULT '[]';
-- For a compensation step, the call it undoes: {step, call_id, tool, version}.
ALTER TABLE run_steps ADD COLUMN compensates JSONB;
-- Per planned call, the attempt whose call record stands (a retry runs again only what is not in
-- effect); empty when every call belongs to the step's current attempt.
ALTER TABLE run_steps ADD COLUMN call_attempts INTEGER[] NOT NULL DEFAULT '{}';
-- The resource version a write expected (sent as If-Match or an argument), and the resource and
-- version a successful call reported: a run's later writes on the resource expect the latest.
ALTER TABLE calls ADD COLUMN expected_version TEXT;
ALTER TABLE calls ADD COLUMN resource JSONB;
