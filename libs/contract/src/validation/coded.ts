import { type ValidationOptions } from 'class-validator';
import { type ErrorCode, isErrorCode } from '../errors/error-codes';

/** The `context` every constraint carries: the registry code reported when it fails. */
export interface CodedContext {
  code: ErrorCode;
}

/**
 * Options for every constraint on one field. All constraints of a field share one code and one sentence
 * stating the whole rule, so whichever constraint fails first the partner reads the full rule and branches
 * on one stable code.
 */
export function coded(code: ErrorCode, rule: string, each = false): ValidationOptions {
  const context: CodedContext = { code };
  return { message: rule, context, each };
}

export function codeOfContext(context: unknown): ErrorCode | undefined {
  if (typeof context !== 'object' || context === null || !('code' in context)) return undefined;
  const { code } = context;
  return typeof code === 'string' && isErrorCode(code) ? code : undefined;
}
