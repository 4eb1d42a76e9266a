// The teams area's request and response schemas.
export {};
