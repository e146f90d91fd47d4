import { type ErrorCode } from '@svc/contract';
import { type AuthFailure } from './auth-types';

export function authFailure(code: ErrorCode, message: string): AuthFailure {
  return { ok: false, code, message };
}
