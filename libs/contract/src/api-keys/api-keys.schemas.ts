// The api-keys area's request and response schemas.
export {};
