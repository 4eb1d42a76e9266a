// The mcp area's request and response schemas.
export {};
