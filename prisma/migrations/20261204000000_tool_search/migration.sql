-- Tool search: one text configuration ('english') for the index and every query, the newest
-- published version's parameter names and descriptions on the tool row, and trigram matching on
-- names for partial and misspelled words. The query side is ToolsRepository.search.

-- Trusted since Postgres 13, so a database owner may create it; PGlite loads it as a contrib module.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Identifiers as words: 'weather.forecast', 'getWeather', 'HTTPServer', 'city_name' -> 'weather
-- forecast', 'get Weather', 'HTTP Server', 'city name' (searchTermsOf in tool-search-query.ts splits
-- queries alike). The parser alone keeps 'weather.forecast' as one host name token.
CREATE FUNCTION toolgate_search_words(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT regexp_replace(
      regexp_replace(
        regexp_replace(value, '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g'),
        '([[:upper:]])([[:upper:]][[:lower:]])', '\1 \2', 'g'),
      '[._:/-]+', ' ', 'g')
  $$;

-- Set with the description and tags whenever a version becomes the tool's newest published one
-- (searchFieldsOf in apps/registry-api/src/tools/tool-summary.ts): the names of every property at
-- any depth of its parameter schema, and their descriptions.
ALTER TABLE tools
  ADD COLUMN parameter_names text NOT NULL DEFAULT '',
  ADD COLUMN parameter_descriptions text NOT NULL DEFAULT '';

-- The same for the tools that exist now, from their newest published version (semver order of
-- major.minor.patch, a release after its pre-releases). searchFieldsOf walks the schema keywords;
-- this reads every "properties" object at any depth, which differs only for schemas that name a
-- property "properties" or carry schema-like objects in values such as "default".
WITH newest AS (
  SELECT DISTINCT ON (tool_id) tool_id, ir -> 'parameters' AS parameters
  FROM tool_versions
  WHERE status = 'published'
  ORDER BY
    tool_id,
    string_to_array(split_part(split_part(version, '+', 1), '-', 1), '.')::numeric[] DESC,
    position('-' IN split_part(version, '+', 1)) = 0 DESC,
    created_at DESC
),
property AS (
  SELECT newest.tool_id, entry.key AS name, entry.value ->> 'description' AS description
  FROM newest
  CROSS JOIN LATERAL jsonb_path_query(
    newest.parameters, 'strict $.**.properties ? (@.type() == "object")', '{}', true
  ) AS map
  CROSS JOIN LATERAL jsonb_each(map) AS entry
),
fields AS (
  SELECT
    tool_id,
    left(string_agg(DISTINCT name, ' '), 16384) AS names,
    left(coalesce(string_agg(DISTINCT description, ' ') FILTER (WHERE description <> ''), ''), 16384)
      AS descriptions
  FROM property
  GROUP BY tool_id
)
UPDATE tools
SET parameter_names = fields.names, parameter_descriptions = fields.descriptions
FROM fields
WHERE fields.tool_id = tools.id;

-- Replaces the column that indexed names and tags with 'simple' and descriptions with 'english'
-- (a query in either configuration missed the other's words). Weights: A name, B tags and
-- parameter names, C description, D parameter descriptions.
DROP INDEX tools_search_idx;
ALTER TABLE tools DROP COLUMN search;
ALTER TABLE tools ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english'::regconfig, toolgate_search_words(name)), 'A') ||
  setweight(to_tsvector('english'::regconfig, toolgate_search_words(toolgate_tags_text(tags))), 'B') ||
  setweight(to_tsvector('english'::regconfig, toolgate_search_words(parameter_names)), 'B') ||
  setweight(to_tsvector('english'::regconfig, description), 'C') ||
  setweight(to_tsvector('english'::regconfig, parameter_descriptions), 'D')
) STORED;
CREATE INDEX tools_search_idx ON tools USING gin (search);
-- strict_word_similarity (<<%, %>>) on names: misspelled words of a tool's name
CREATE INDEX tools_name_trgm_idx ON tools USING gin (name gin_trgm_ops);
