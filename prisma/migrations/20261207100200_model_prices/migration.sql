-- The platform team's prices per provider and model, in US dollars per million tokens. Rows are
-- overrides of the defaults Toolgate ships (which live in code, documented as defaults).
CREATE TABLE model_prices (
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  input_usd_per_mtok DOUBLE PRECISION NOT NULL,
  output_usd_per_mtok DOUBLE PRECISION NOT NULL,
  cache_read_usd_per_mtok DOUBLE PRECISION NOT NULL,
  cache_write_usd_per_mtok DOUBLE PRECISION NOT NULL,
  updated_by TEXT NOT NULL,
  updated_at TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, model)
);
