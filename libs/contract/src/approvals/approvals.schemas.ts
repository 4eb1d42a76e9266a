// The approvals area's request and response schemas.
export {};
