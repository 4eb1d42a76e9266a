// The usage area's request and response schemas.
export {};
