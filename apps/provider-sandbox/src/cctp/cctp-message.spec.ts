import { concatHex, encodePacked, getAddress, pad, type Hex } from 'viem';
import { attestedCctpMessage, cctpNonceOf, decodeCctpBurnMessage } from './cctp-message';

const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const RECIPIENT = getAddress('0x00000000000000000000000000000000000000aa');
const SENDER = getAddress('0x00000000000000000000000000000000000000bb');

/** A message as MessageTransmitterV2.sendMessage emits it (empty nonce, finality and fee), by MessageV2's layout. */
function sentMessage(hookData: Hex = '0x'): Hex {
  const body = encodePacked(
    ['uint32', 'bytes32', 'bytes32', 'uint256', 'bytes32', 'uint256', 'uint256', 'uint256'],
    [1, pad(USDC), pad(RECIPIENT), 25_000_000n, pad(SENDER), 2_500n, 0n, 0n],
  );
  const header = encodePacked(
    ['uint32', 'uint32', 'uint32', 'bytes32', 'bytes32', 'bytes32', 'bytes32', 'uint32', 'uint32'],
    [1, 0, 6, pad('0x'), pad(SENDER), pad(USDC), pad('0x'), 1000, 0],
  );
  return concatHex([header, body, hookData]);
}

describe('CCTP V2 messages (circlefin/evm-cctp-contracts MessageV2, BurnMessageV2)', () => {
  it('decodes a sent burn message field by field', () => {
    const decoded = decodeCctpBurnMessage(sentMessage());
    expect(decoded).toMatchObject({
      version: 1,
      sourceDomain: 0,
      destinationDomain: 6,
      nonce: pad('0x'),
      minFinalityThreshold: 1000,
      finalityThresholdExecuted: 0,
      body: {
        burnToken: USDC,
        mintRecipient: RECIPIENT,
        amount: 25_000_000n,
        messageSender: SENDER,
        maxFee: 2_500n,
        feeExecuted: 0n,
        expirationBlock: 0n,
        hookData: '0x',
      },
    });
    expect(decodeCctpBurnMessage(sentMessage('0xc0ffee')).body.hookData).toBe('0xc0ffee');
  });

  it('attests by filling in the nonce, finalityThresholdExecuted and feeExecuted, and nothing else', () => {
    const nonce = cctpNonceOf({ sourceChainId: 1, transactionHash: pad('0x01'), logIndex: 3 });
    for (const hook of ['0x', '0xc0ffee'] as const) {
      const sent = sentMessage(hook);
      const attested = attestedCctpMessage(sent, {
        nonce,
        finalityThresholdExecuted: 1000,
        feeExecuted: 2_400n,
      });
      expect(attested.length).toBe(sent.length);
      const before = decodeCctpBurnMessage(sent);
      const after = decodeCctpBurnMessage(attested);
      expect(after).toEqual({
        ...before,
        nonce,
        finalityThresholdExecuted: 1000,
        body: { ...before.body, feeExecuted: 2_400n },
      });
    }
  });

  it('gives each MessageSent log its own nonce', () => {
    const at = (logIndex: number, chain = 1) =>
      cctpNonceOf({ sourceChainId: chain, transactionHash: pad('0x01'), logIndex });
    expect(new Set([at(0), at(1), at(0, 8453)]).size).toBe(3);
  });

  it('refuses a message too short to hold a burn', () => {
    expect(() => decodeCctpBurnMessage('0x0000')).toThrow(/at least 376 bytes/);
  });
});
