export const USAGE = `usage: npm run audit -- <command>

Reads the service's event store (never writes to it) and checks what it says.

commands:
  attempt <attemptId> [--json] [--verify-chain] [--api <url>]
      The attempt's whole history, from its stream and every stream it touches (intent session, webhook deliveries,
      transaction claims, Idempotency-Key records), then the snapshot folded from its events and whether the status
      use case (GET /attempts/{id}/status) returns the same. --verify-chain reads every source transaction and
      delivery again from the chains; --api also asks a running service, signed as the attempt's partner.
  verify --all [--since <date>] [--partner <id>] [--store-only] [--json]
      The same checks over every attempt (prepared since <date>, of <partner>), streamed, with a summary. Needs
      CHAINS_FILE unless --store-only. --json: one JSON line per finding, then the summary.
  fees --partner <id> --from <date> --to <date> [--csv]
      Per attempt prepared in [from, to) and in total: provider fees, service fee and markup owed to the partner,
      from what actually settled, with the markup recorded at quote time reconciled.
  help

dates: 2026-01-31 (a whole day: --to includes it) or an ISO date-time.

environment (the service's own): EVENT_STORE (sqlite | eventstoredb), DATA_DIR (default data; the store is
  $DATA_DIR/events.sqlite, opened read-only), EVENTSTOREDB_URL, CHAINS_FILE (--verify-chain, verify),
  SETTLEMENT_TRACKING_LIMIT_SECONDS (verify), PARTNERS_FILE or PARTNER_ID + PARTNER_SECRET (--api)

exit codes: 0 no findings, 1 findings (a difference, a mismatch, a markup record that disagrees with its inputs) or
  not found, 2 usage, configuration, or a store that cannot be opened read-only, 3 no findings but a chain that could
  not be read (not in CHAINS_FILE, or its node did not answer): check again, 4 chain checks refused: the store
  belongs to another sandbox chain run than the chains (its $DATA_DIR/sandbox-chain-run.json names other genesis
  hashes); nothing was checked (audit it with --store-only, or audit the data of the running sandbox's run)
`;
