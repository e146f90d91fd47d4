import { type Hex, parseEventLogs, parseAbi, zeroAddress } from 'viem';
import { endOfLogs, type FillRecord, type FillRecordQuery } from '../fill-record';

const TRANSFER_ABI = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

/** The claim key of a Relay request. */
export const relayDepositKey = (requestId: string) => `relay-${requestId.toLowerCase()}`;

/**
 * A Relay request's fill, as Relay's own oracle attests it (relayprotocol/relay-protocol-oracle
 * src/services/attestation/vm/ethereum-vm/index.ts `getSolverPaidAmount`): the solver's fill transaction names the
 * order id at the end of its calldata (`input.endsWith(orderId)`), so it fills that one order; an ERC-20 payout is
 * every Transfer of the currency to the recipient in it, a direct native payout the value of a transaction sent to the
 * recipient whose calldata starts with the order id. A transaction whose calldata does not end with the request id
 * (a plain transfer, the sandbox's) is `none`; so is a native payout through the solver's fill contract
 * (`SolverNativeTransfer`), which the native read counts.
 */
export function relayFillRecord(requestId: string, query: FillRecordQuery): FillRecord {
  const id = requestId.toLowerCase().replace(/^0x/, '');
  const input = query.tx.input.toLowerCase();
  const { recipient, token } = query;
  if (id.length !== 64 || !input.endsWith(id) || recipient === undefined || token === undefined) {
    return { kind: 'none' };
  }
  const to = recipient.toLowerCase();
  let amount: bigint;
  if (token.toLowerCase() === zeroAddress) {
    const direct = query.tx.to?.toLowerCase() === to && input.startsWith(`0x${id}`);
    if (!direct) return { kind: 'none' };
    amount = query.tx.value;
  } else {
    amount = parseEventLogs({ abi: TRANSFER_ABI, logs: query.logs.map(asViemLog), strict: true })
      .filter((l) => l.address.toLowerCase() === token.toLowerCase() && l.args.to.toLowerCase() === to)
      .reduce((sum, l) => sum + l.args.value, 0n);
  }
  return {
    kind: 'found',
    depositKey: relayDepositKey(requestId),
    amount,
    recipient,
    token,
    fromLogIndex: 0,
    toLogIndex: endOfLogs(query.logs),
  };
}

function asViemLog(log: FillRecordQuery['logs'][number]) {
  return {
    address: log.address,
    topics: log.topics as [Hex, ...Hex[]],
    data: log.data,
    logIndex: log.logIndex,
    blockHash: null,
    blockNumber: null,
    transactionHash: null,
    transactionIndex: null,
    removed: false,
  } as const;
}
