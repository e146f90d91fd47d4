import { decodeApprove } from '../evm/decode-approve';
import { type ProviderCall } from '../provider-quote';
import {
  address,
  chainId,
  hexData,
  isRecord,
  list,
  optionalBaseUnits,
  optionalGasLimit,
  optionalText,
  record,
} from '../response/json-fields';
import { MalformedResponseError } from '../response/malformed-response.error';
import { UnusableRouteError } from '../response/unusable-route.error';

const DEPOSIT_STEPS = ['deposit', 'swap', 'send'];

/**
 * The wallet's transactions, in the order Relay lists them (approvals come first, a USDT reset before the
 * approval proper), and the request id the steps carry.
 */
export function relayCalls(
  steps: unknown,
  sourceChainId: number,
): { calls: ProviderCall[]; requestId: string } {
  const calls: ProviderCall[] = [];
  let requestId: string | null = null;
  list(steps, 'steps').forEach((rawStep, s) => {
    const step = record(rawStep, `steps[${s}]`);
    requestId ??= optionalText(step.requestId) ?? requestIdFromCheck(step.items);
    const items = list(step.items, `steps[${s}].items`).filter(
      // A complete item is already done on chain (an approval the allowance covers).
      (item) => !(isRecord(item) && item.status === 'complete'),
    );
    if (items.length === 0) return;
    const id = optionalText(step.id) ?? 'unknown';
    if (step.kind !== 'transaction')
      throw new UnusableRouteError(
        `step "${id}" needs a ${String(step.kind)}, which this service does not execute`,
      );
    items.forEach((rawItem, i) =>
      calls.push(relayCall(id, rawItem, `steps[${s}].items[${i}]`, sourceChainId)),
    );
  });
  if (requestId === null) throw new MalformedResponseError('no step carries a requestId');
  if (!calls.some((call) => call.kind === 'deposit'))
    throw new MalformedResponseError('steps hold no deposit, swap or send transaction');
  return { calls, requestId };
}

function relayCall(stepId: string, rawItem: unknown, path: string, sourceChainId: number): ProviderCall {
  const data = record(record(rawItem, path).data, `${path}.data`);
  const call: ProviderCall = {
    chainId: chainId(data.chainId, `${path}.data.chainId`),
    to: address(data.to, `${path}.data.to`),
    data: hexData(data.data, `${path}.data.data`),
    value: optionalBaseUnits(data.value, `${path}.data.value`) ?? 0n,
    // relay-kit sends `gas` only when it is truthy (packages/sdk/src/utils/viemWallet.ts): 0 is unset, as for Across.
    gas: optionalGasLimit(data.gas, `${path}.data.gas`),
    kind: stepId === 'approve' ? 'approve' : DEPOSIT_STEPS.includes(stepId) ? 'deposit' : 'other',
  };
  if (call.chainId !== sourceChainId)
    throw new MalformedResponseError(
      `${path} is on chain ${call.chainId}, not the origin chain ${sourceChainId}`,
    );
  if (call.kind === 'approve') {
    const approve = decodeApprove(call.data);
    if (approve === null)
      throw new MalformedResponseError(`${path} is an approve step without approve calldata`);
    call.approval = { token: call.to, spender: approve.spender, amount: approve.amount };
  }
  return call;
}

/** Older answers only show the id inside `check.endpoint` (`/intents/status/v3?requestId=0x…`). */
function requestIdFromCheck(items: unknown): string | null {
  if (!Array.isArray(items)) return null;
  for (const item of items) {
    const endpoint = isRecord(item) && isRecord(item.check) ? item.check.endpoint : undefined;
    const match =
      typeof endpoint === 'string' ? /[?&]requestId=(0x[0-9a-fA-F]+)(?:&|$)/.exec(endpoint) : null;
    if (match?.[1] !== undefined) return match[1];
  }
  return null;
}
