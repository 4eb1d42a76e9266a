-- The MCP session a call came from and the client capabilities it declared that Toolgate relays
-- ({session_id, relay_id, capabilities}): an upstream MCP server's sampling and elicitation
-- requests and log messages during the call go to that client over relay_id, wherever the call
-- runs. NULL for calls that have no client to ask (REST, MCP without a session).
ALTER TABLE calls ADD COLUMN client_relay JSONB;
