import { type HttpResult } from './http-result';

export function isJsonSuccess(result: HttpResult): result is { kind: 'json'; status: number; body: unknown } {
  return result.kind === 'json' && result.status >= 200 && result.status < 300;
}
