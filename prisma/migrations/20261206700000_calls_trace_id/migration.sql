-- The W3C trace id (32 hex digits) of the request that recorded the call: the console links a
-- call to its trace in the team's tracing backend. NULL when the request carried no trace.
ALTER TABLE calls ADD COLUMN trace_id TEXT;
