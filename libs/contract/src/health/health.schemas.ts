// The health area's request and response schemas.
export {};
