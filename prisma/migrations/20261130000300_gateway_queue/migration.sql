-- The worker's hold on a call: which pickup runs it, so a stale worker that lost its job cannot
-- overwrite the outcome of the run that took the call over (compare-and-set on run_id).
ALTER TABLE calls ADD COLUMN run_id text;
ALTER TABLE calls ADD COLUMN worker_id text;
ALTER TABLE calls ADD COLUMN run_attempt integer;
