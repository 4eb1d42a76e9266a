-- Where the audit chain was last verified intact: verifications re-check this event and walk only
-- the events after it, instead of the whole chain. One row, written by verifications alone, in one
-- conditional upsert each, so two at once never move it back (audit.repository.ts).
CREATE TABLE audit_checkpoint (
  id          integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  -- the last event verified (0 with the genesis hash: nothing verified before the first event)
  seq         bigint NOT NULL CHECK (seq >= 0),
  hash        text NOT NULL,
  verified_at timestamptz(3) NOT NULL
);
