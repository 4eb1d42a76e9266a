-- The secret store: values tools reference as {"secret": "NAME"}, per team, sealed with AES-256-GCM.
-- Only ciphertext is stored; key_id names the key that sealed the row, so a key can be rotated
-- while older rows still open under TOOLGATE_SECRETS_OLD_KEYS until they are re-encrypted.

CREATE TABLE secrets (
  id            uuid PRIMARY KEY,
  team_id       uuid NOT NULL REFERENCES teams (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  name          text NOT NULL,
  key_id        text NOT NULL,
  -- base64 of the 12-byte GCM nonce, the ciphertext and the 16-byte authentication tag.
  nonce         text NOT NULL,
  ciphertext    text NOT NULL,
  auth_tag      text NOT NULL,
  created_by    text NOT NULL,
  created_at    timestamptz(3) NOT NULL DEFAULT now(),
  updated_at    timestamptz(3) NOT NULL DEFAULT now(),
  -- Written at most once a minute per secret by each process that resolves it.
  last_used_at  timestamptz(3)
);
CREATE UNIQUE INDEX secrets_team_id_name_key ON secrets (team_id, name);
