// The exports area's request and response schemas.
export {};
