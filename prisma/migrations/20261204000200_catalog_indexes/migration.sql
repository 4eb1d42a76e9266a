-- Every tool list and export page is cut by (name, id): with this index a page is an index scan
-- from the cursor, reading about what it returns, where the planner used to read every visible tool
-- and sort them for each page.
CREATE INDEX tools_name_id_idx ON tools (name, id);
