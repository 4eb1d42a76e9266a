-- What an export resolved, so a call can run the versions the model was shown. The id is a
-- hash of the content: equal resolutions share one row, and a handle cannot be guessed.
CREATE TABLE export_snapshots (
  id          text PRIMARY KEY,
  -- {"<tool id>": "<version>", ...}
  versions    jsonb NOT NULL,
  created_at  timestamptz(3) NOT NULL DEFAULT now()
);
