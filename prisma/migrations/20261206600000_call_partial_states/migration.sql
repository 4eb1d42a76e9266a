-- How a streamed call's arguments grew, as the client recorded it and posted it with the call:
-- {entries: [{offset_ms, pointers: [JSON Pointer, ...]}, ...], truncated}, bounded by the API
-- (PARTIAL_STATES_LIMITS in libs/contract); NULL when the client posted none.
ALTER TABLE calls ADD COLUMN partial_states JSONB;
