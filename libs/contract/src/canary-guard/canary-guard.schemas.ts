// The canary-guard area's request and response schemas.
export {};
