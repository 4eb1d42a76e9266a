// The policies area's request and response schemas.
export {};
