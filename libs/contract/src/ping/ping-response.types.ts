import { type API_VERSION } from '../errors/error-response';

/** spec: Ping body (200 of GET /ping): proves authentication and connectivity. */
export interface PingResponse {
  apiVersion: typeof API_VERSION;
  ok: true;
  partnerId: string;
}
