export const USAGE = `usage: npm run webhooks -- <command>

commands:
  list [--failed | --abandoned] [--attempt <attemptId>]
      Webhook queue entries of every attempt (or one). Default: entries retrying or abandoned;
      --failed: retrying only (a try failed, another is scheduled); --abandoned: abandoned only.
  redeliver <attemptId> <eventId> [--by <name>]
      Queue a delivered or abandoned event again, or try an event waiting for its next retry now
      (requestedBy: --by, else $USER, else "operator"). The running dispatcher picks the request up on its own.
  help

environment: DATA_DIR (default data; store at $DATA_DIR/events.sqlite), EVENT_STORE (sqlite | eventstoredb),
  EVENTSTOREDB_URL (when EVENT_STORE=eventstoredb)

exit codes: 0 ok, 1 refused or not found, 2 usage or configuration
`;
