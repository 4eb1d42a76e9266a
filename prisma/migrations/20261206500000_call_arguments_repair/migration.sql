-- What happened to a call whose arguments were cut off (the model's output ended inside them):
-- {outcome: 'repaired', received, raw_arguments, closed, completed, dropped, filled} when its tool
-- version opts in and the schema made the completion unambiguous, else {outcome: 'not_repaired',
-- received, raw_arguments, reason} (the call was answered incomplete_arguments and never ran);
-- NULL for a call whose arguments arrived whole.
ALTER TABLE calls ADD COLUMN arguments_repair JSONB;
