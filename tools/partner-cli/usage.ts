export const USAGE = `usage: npm run partner -- <command>

commands:
  ping                                             auth and connectivity probe
  quote --file request.json [--key K] [--fresh]    POST /intents/quote (--fresh: a new quote, not a replay)
  prepare <intentSessionId> [--file body.json] [--key K]
                                                   POST /intents/{id}/prepare
  submitted <attemptId> --file body.json [--key K] POST /attempts/{id}/submitted
  status <attemptId>                               GET /attempts/{id}/status

sandbox only (a funded wallet of the local provider sandbox, whose manifest npm start writes to .sandbox/):
  demo --file request.json [--user N]              a new quote (walletAddress = the sandbox wallet), prepare, then
                                                   the wallet's part as sandbox-wallet does it
  sandbox-wallet <intentSessionId | prepare-response.json> [--user N]
                                                   the user's wallet's part: prepare (or replay the earlier
                                                   prepare <id>), sign the walletAuthorization, send each chain
                                                   action's transactions in order, POST submitted, follow status
                                                   to settled, failed or expired (exit 0 only when settled)

environment:
  SERVICE_URL           default http://127.0.0.1:3000
  PARTNER_ID            default: the first partner of PARTNERS_FILE
  PARTNER_SECRET        when unset, the partner's secret (or secretEnv) is read from PARTNERS_FILE
  PARTNER_AUTH_VERSION  1 or 2; default: the partner's authVersion in PARTNERS_FILE, else 2
  PARTNERS_FILE         default config/partners.dev.json
  SANDBOX_MANIFEST_DIR  sandbox-only commands: where manifest.json is; default .sandbox

A POST re-run with the same file (or the same --key) reuses the stored Idempotency-Key and body bytes
(.partner-client/idempotency.json, kept per SERVICE_URL and partner), so retrying after a time-out never
creates a second resource. A quote
lives about 60 s: a replay after that answers quoteStatus "expired"; quote --fresh asks for a new one.
The sandbox-only commands refuse (exit 2) without the manifest, or when a chain action is on a chain the sandbox
does not run, or its RPC is not the sandbox's anvil on loopback, or SERVICE_URL is not on loopback (unless its
/ping accepts a partner of a partners file marked "development": true): they sign with public development keys
(--user N: wallets.users[N], default 0; the attempt's wallet must be that one).
Exit code: 0 for a 2xx answer, 1 otherwise, 2 for usage or configuration errors.
`;
