import { type ProviderCall } from './provider-quote';

/** A ProviderCall as JSON (amounts as base-10 strings), the form in which sessions and attempts store it. */
export interface SerializedProviderCall {
  chainId: number;
  to: string;
  data: string;
  value: string;
  gas: string | null;
  kind: ProviderCall['kind'];
  approval: { token: string; spender: string; amount: string } | null;
}

export function serializeProviderCall(call: ProviderCall): SerializedProviderCall {
  return {
    chainId: call.chainId,
    to: call.to,
    data: call.data,
    value: call.value.toString(),
    gas: call.gas === null ? null : call.gas.toString(),
    kind: call.kind,
    approval: call.approval
      ? {
          token: call.approval.token,
          spender: call.approval.spender,
          amount: call.approval.amount.toString(),
        }
      : null,
  };
}
