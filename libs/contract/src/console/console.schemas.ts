// The console area's request and response schemas.
export {};
