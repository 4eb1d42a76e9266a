// The imports area's request and response schemas.
export {};
