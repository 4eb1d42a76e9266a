-- The OAuth access token a call's caller presented (issuer, subject, client id, scopes), kept with
-- the call so the policy that decides it when it runs sees what the caller was granted.
ALTER TABLE calls ADD COLUMN caller_oauth JSONB;
