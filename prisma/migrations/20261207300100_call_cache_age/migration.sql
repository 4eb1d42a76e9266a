-- How old the cached result was when the result cache answered the call (answered_by = 'cache');
-- NULL for every call that executed. Cost and SLO reports count cache answers by it.
ALTER TABLE calls ADD COLUMN cache_age_ms INTEGER;
