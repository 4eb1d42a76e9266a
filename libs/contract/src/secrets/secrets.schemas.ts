// The secrets area's request and response schemas.
export {};
