-- Console users (people who sign in to the admin console) and their sessions.
-- Hand-written like the earlier migrations; database.int.test.ts checks it against prisma/schema.prisma.

CREATE TYPE console_role AS ENUM ('viewer', 'approver', 'admin');

CREATE TABLE console_users (
  id            uuid PRIMARY KEY,
  -- Stored lower-cased, so sign-in and uniqueness ignore case.
  email         text NOT NULL CHECK (email = lower(email)),
  name          text NOT NULL,
  role          console_role NOT NULL,
  -- argon2id in PHC string form ($argon2id$v=19$m=...,t=...,p=...$salt$hash).
  password_hash text NOT NULL,
  disabled_at   timestamptz(3),
  created_by    text NOT NULL,
  created_at    timestamptz(3) NOT NULL DEFAULT now(),
  updated_at    timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX console_users_email_key ON console_users (email);

CREATE TABLE console_sessions (
  -- sha256 of the cookie's token: a leaked table does not hand out live sessions.
  token_hash  text PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES console_users (id) ON DELETE CASCADE ON UPDATE CASCADE,
  created_at  timestamptz(3) NOT NULL DEFAULT now(),
  expires_at  timestamptz(3) NOT NULL
);
-- Disabling a user ends all of their sessions at once.
CREATE INDEX console_sessions_user_id_idx ON console_sessions (user_id);
CREATE INDEX console_sessions_expires_at_idx ON console_sessions (expires_at);
