-- Four eyes by default: the key or user that made a destructive call may decide its own approval
-- only when a team admin turned this on for the team.
ALTER TABLE teams ADD COLUMN allow_self_approval boolean NOT NULL DEFAULT false;
