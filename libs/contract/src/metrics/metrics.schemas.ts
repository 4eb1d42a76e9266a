// The metrics area's request and response schemas.
export {};
