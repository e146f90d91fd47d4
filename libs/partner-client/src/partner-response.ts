/** Any HTTP answer, 4xx and 5xx included: the API's errors are data (`body.code`), not exceptions. */
export interface PartnerResponse {
  status: number;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** Parsed JSON; the text when the body is not JSON; null when it is empty. */
  body: unknown;
}
