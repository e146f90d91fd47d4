/** Where a background worker reports (Nest's Logger fits): structured messages, one object per line. */
export interface WorkerLogger {
  log(message: object): void;
  warn(message: object): void;
  error(message: object): void;
}

/** An error's message, whatever was thrown. */
export const errorMessage = (err: unknown): string =>
  err instanceof Error ? err.message : typeof err === 'string' ? err : String(err);
