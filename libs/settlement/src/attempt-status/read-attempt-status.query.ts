/** Read a partner's attempt. Built by the bus handler; the use case never sees the envelope. */
export interface ReadAttemptStatus {
  partnerId: string;
  attemptId: string;
}
