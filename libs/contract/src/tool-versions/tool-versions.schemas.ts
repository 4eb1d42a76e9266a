// The tool-versions area's request and response schemas.
export {};
