import { type ExecutionCall } from '@svc/domain';

/** A call of a chain action before numbering: the wire fields plus the kind that picks a plan's primary call. */
export interface DraftCall {
  to: string;
  data: string;
  value: string;
  gas: string | null;
  kind: ExecutionCall['kind'];
}

/** A provider's stored call as handed out: every field verbatim. */
export function storedCall(call: ExecutionCall): DraftCall {
  return { to: call.to, data: call.data, value: call.value, gas: call.gas, kind: call.kind };
}
