import { type ChainClient } from '@svc/chains';
import { encodeFunctionData, serializeTransaction } from 'viem';
import { GAS_PRICE_ORACLE, GET_L1_FEE_ABI } from './op-stack-l1-fee';
import { simulateChainCalls } from './simulate-chain-calls';

describe('simulateChainCalls: the L1 data fee block', () => {
  it("asks the GasPriceOracle's getL1Fee of each call's unsigned EIP-1559 bytes, encoded as viem encodes it", async () => {
    const requests: unknown[] = [];
    const client = {
      request: (args: unknown) => {
        requests.push(args);
        return Promise.resolve([
          { calls: [{ status: '0x1', gasUsed: '0xb411', returnData: '0x' }] },
          { calls: [{ status: '0x1', gasUsed: '0x1', returnData: `0x${'00'.repeat(31)}2a` }] },
        ]);
      },
    } as unknown as ChainClient;
    const call = {
      to: '0x00000000000000000000000000000000000000aa',
      data: '0x095ea7b3',
      value: '7',
    } as const;
    const fees = { maxFeePerGas: 12n, maxPriorityFeePerGas: 2n };

    const gas = await simulateChainCalls(client, {
      chainId: 8453,
      wallet: '0x00000000000000000000000000000000000000bb',
      calls: [call],
      gasGuess: () => 50_000n,
      l1DataFee: true,
      ...fees,
    });

    expect(gas).toEqual({ calls: [{ gasUsed: 0xb411n, l1DataFee: 42n }], reads: [] });
    const unsigned = serializeTransaction({
      type: 'eip1559',
      chainId: 8453,
      nonce: 0,
      gas: 50_000n,
      ...fees,
      to: call.to,
      value: 7n,
      data: call.data,
    });
    expect(requests).toEqual([
      {
        method: 'eth_simulateV1',
        params: [
          {
            blockStateCalls: [
              {
                calls: [
                  {
                    from: '0x00000000000000000000000000000000000000bb',
                    to: call.to,
                    input: call.data,
                    value: '0x7',
                  },
                ],
              },
              {
                calls: [
                  {
                    to: GAS_PRICE_ORACLE,
                    input: encodeFunctionData({
                      abi: GET_L1_FEE_ABI,
                      functionName: 'getL1Fee',
                      args: [unsigned],
                    }),
                  },
                ],
              },
            ],
            validation: false,
          },
          'latest',
        ],
      },
    ]);
  });
});
