// The calls area's request and response schemas.
export {};
