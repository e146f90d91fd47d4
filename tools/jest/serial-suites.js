// The suites `npm test` runs alone, one at a time, after the others (tools/jest/test.js): each compares latencies it
// measures side by side, or holds a wall-clock window, so another suite sharing the two cores would make it measure
// the other suite. Everything else runs two at a time. A path here is a regular expression over the spec's path.
module.exports = [
  // p99 of partners beside a hostile client, against the same load quiet
  'apps/standalone/src/e2e/abuse\\.e2e\\.spec\\.ts$',
  // one client's failed authentications must not slow another's requests
  'apps/standalone/src/e2e/edge-fairness\\.e2e\\.spec\\.ts$',
  // B's webhook p95 with A's recovery against without
  'libs/webhooks/src/control/recover-fairness\\.int\\.spec\\.ts$',
  // one partner's black-holed receiver against another's deliveries
  'libs/webhooks/src/dispatch/webhook-fairness\\.int\\.spec\\.ts$',
  // other attempts' settlement median during a busy wallet's deposit search, against before and after
  'apps/standalone/src/e2e/busy-wallet\\.e2e\\.spec\\.ts$',
  // 45 attempts within the soak's 3 minutes
  'apps/standalone/src/e2e/settlement-soak\\.e2e\\.spec\\.ts$',
  // the first hour at a human pace inside the contract's 30 s signable window
  'tools/docs/doc-commands\\.e2e\\.spec\\.ts$',
  // the bench's own smoke: its figures are measurements
  'tools/bench/bench\\.smoke\\.spec\\.ts$',
];
