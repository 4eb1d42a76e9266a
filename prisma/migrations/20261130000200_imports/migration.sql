-- Imports: upstream MCP servers whose tools the registry mirrors as tool versions.
-- Hand-written like the earlier migrations; database.int.test.ts checks it against prisma/schema.prisma.

CREATE TABLE mcp_servers (
  id              uuid PRIMARY KEY,
  team_id         uuid NOT NULL REFERENCES teams (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  name            text NOT NULL,
  url             text NOT NULL,
  -- The header the upstream expects its credential in, and the secret's name (never its value).
  auth_header     text,
  auth_secret     text,
  auth_prefix     text,
  -- Whether imports and re-syncs publish (and release as stable) or only draft.
  -- Put before every imported tool's name.
  name_prefix     text,
  publish         boolean NOT NULL DEFAULT false,
  created_by      text NOT NULL,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  last_synced_at  timestamptz(3)
);
CREATE UNIQUE INDEX mcp_servers_team_id_name_key ON mcp_servers (team_id, name);

-- Which registry tool mirrors which upstream tool; a tool gone upstream keeps its row with removed_at.
CREATE TABLE mcp_server_tools (
  id             uuid PRIMARY KEY,
  server_id      uuid NOT NULL REFERENCES mcp_servers (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  upstream_name  text NOT NULL,
  tool_id        uuid NOT NULL REFERENCES tools (id) ON DELETE RESTRICT ON UPDATE CASCADE,
  removed_at     timestamptz(3)
);
CREATE UNIQUE INDEX mcp_server_tools_server_id_upstream_name_key ON mcp_server_tools (server_id, upstream_name);
CREATE UNIQUE INDEX mcp_server_tools_tool_id_key ON mcp_server_tools (tool_id);
