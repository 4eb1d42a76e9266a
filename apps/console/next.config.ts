import type { NextConfig } from 'next';

const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The call page links to traces with it (app/lib/trace-url.ts); read when the console starts.
  env: { TOOLGATE_TRACE_URL_TEMPLATE: process.env['TOOLGATE_TRACE_URL_TEMPLATE'] ?? '' },
};

export default config;
