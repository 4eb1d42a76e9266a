// The audit area's request and response schemas.
export {};
