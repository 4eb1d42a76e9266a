// The releases area's request and response schemas.
export {};
