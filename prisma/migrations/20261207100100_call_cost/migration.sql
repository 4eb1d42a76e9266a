-- What a call cost. The token columns are written with the call (its share of the model turn's
-- tokens, priced from the price table then); the tool columns with its outcome. NULL where
-- nothing is known: no usage posted, an unpriced model, a tool without estimate or report.
ALTER TABLE calls ADD COLUMN model TEXT;
ALTER TABLE calls ADD COLUMN tokens JSONB;
ALTER TABLE calls ADD COLUMN tokens_usd DOUBLE PRECISION;
ALTER TABLE calls ADD COLUMN tokens_unpriced_reason TEXT;
ALTER TABLE calls ADD COLUMN tool_cost_usd DOUBLE PRECISION;
ALTER TABLE calls ADD COLUMN tool_cost_source TEXT;
