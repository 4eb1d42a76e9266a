// The call-timeline area's request and response schemas.
export {};
