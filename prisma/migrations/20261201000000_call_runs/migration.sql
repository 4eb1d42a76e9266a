-- Every pickup of a call, oldest first: {worker_id, attempt, run_id, started_at, ended?}. A worker
-- killed mid-call is taken over by another; the history keeps both pickups, so the timeline shows
-- each start and how it ended. Appended by the claim and take-over statements themselves (one
-- statement per claim still), ended by the outcome statement.
ALTER TABLE calls ADD COLUMN runs jsonb NOT NULL DEFAULT '[]'::jsonb;

-- Calls picked up before the history existed keep the one pickup the row remembers.
UPDATE calls
   SET runs = jsonb_build_array(jsonb_build_object(
         'worker_id', coalesce(worker_id, ''),
         'attempt', coalesce(run_attempt, 1),
         'run_id', run_id,
         'started_at', floor(extract(epoch FROM coalesce(started_at, created_at)) * 1000)))
 WHERE run_id IS NOT NULL;
