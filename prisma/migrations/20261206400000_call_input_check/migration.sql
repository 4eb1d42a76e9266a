-- How a free-text call's input was checked against its tool version's grammar: 'regex' (matched
-- with a linear-time RE2 engine before the tool ran) or 'not_checked' (a Lark grammar, which has
-- no maintained JavaScript parser); NULL for JSON calls and free text without a grammar.
ALTER TABLE calls ADD COLUMN input_check TEXT;
