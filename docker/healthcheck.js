#!/usr/bin/env node
// Container health probe, used by the Dockerfile's HEALTHCHECK and compose (the image has no curl).
// Every app that serves HTTP answers GET /healthz on PORT; the provider sandbox answers GET /health on
// SANDBOX_PORT. Exit 0 = healthy, 1 = unhealthy.
'use strict';

const app = process.env.APP || 'standalone';
const url =
  app === 'provider-sandbox'
    ? `http://127.0.0.1:${process.env.SANDBOX_PORT || 7700}/health`
    : `http://127.0.0.1:${process.env.PORT || 3000}/healthz`;

fetch(url, { signal: AbortSignal.timeout(4000), redirect: 'manual' }).then(
  (res) => process.exit(res.status === 200 ? 0 : 1),
  () => process.exit(1),
);
