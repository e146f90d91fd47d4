export const USAGE = `usage: npm run partner -- <command>

commands:
  ping                                             auth and connectivity probe
  quote --file request.json [--key K]              POST /intents/quote
  prepare <intentSessionId> [--file body.json] [--key K]
                                                   POST /intents/{id}/prepare
  submitted <attemptId> --file body.json [--key K] POST /attempts/{id}/submitted
  status <attemptId>                               GET /attempts/{id}/status

environment:
  SERVICE_URL           default http://127.0.0.1:3000
  PARTNER_ID            default: the first partner of PARTNERS_FILE
  PARTNER_SECRET        when unset, the partner's secret (or secretEnv) is read from PARTNERS_FILE
  PARTNER_AUTH_VERSION  1 or 2; default: the partner's authVersion in PARTNERS_FILE, else 2
  PARTNERS_FILE         default config/partners.dev.json

A POST re-run with the same file (or the same --key) reuses the stored Idempotency-Key and body bytes
(.partner-client/idempotency.json), so retrying after a time-out never creates a second resource.
Exit code: 0 for a 2xx answer, 1 otherwise, 2 for usage or configuration errors.
`;
