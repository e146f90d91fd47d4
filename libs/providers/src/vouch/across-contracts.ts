import { type Address } from 'viem';
import { type ChainContracts, type ContractAllowlist } from './provider-contracts';

/**
 * The Swap API's `swapTx.to` is the SpokePool for a plain bridge and the SpokePoolPeriphery for native input or
 * a source swap, and its `approvalTxns` approve exactly that `to` (across-protocol/frontend @ bdcf46ce,
 * api/swap/approval/_utils.ts `_buildDepositTxForAllowanceHolderEvm`, api/swap/approval/_service.ts
 * `spender: crossSwapTx.to`). So every contract below is both a target and a spender. The MulticallHandler only
 * runs on the destination (as the deposit's recipient), never in a wallet call, and is not listed.
 *
 * SpokePool and SpokePoolPeriphery: across-protocol/contracts @ 8ab07306, broadcast/deployed-addresses.json (the
 * current deployments) and deployments/legacy-addresses.json (earlier peripheries, which Swap API answers still
 * name), and the Swap API's own `spokePoolPeripheryAddresses` (frontend
 * src/data/routes_1_0xc186fA914353c44b2E33eBE05f21846F1048bEda.json).
 */
const PERIPHERY: Address = '0x10D8b8DaA26d307489803e10477De69C0492B610';
const PERIPHERY_ZK: Address = '0x5a148a9260c1f670429361c34d40b477280F01a9';
const SWAP_API_PERIPHERY: Address = '0x89415a82d909a7238d69094C3Dd1dCC1aCbDa85C';
const SWAP_API_PERIPHERY_HYPER: Address = '0xF1BF00D947267Da5cC63f8c8A60568c59FA31bCb';
const LEGACY_PERIPHERY: Address = '0x767e4c20F521a829dE4Ffc40C25176676878147f';

/**
 * USDC→USDC legs may go through CCTP: `swapTx.to` is Circle's TokenMessengerV2 with value 0 (frontend
 * api/_bridges/cctp/strategy.ts; address from api/_bridges/cctp/utils/constants.ts, "Source:
 * developers.circle.com/cctp/evm-smart-contracts"), on the EVM mainnets of `CCTP_SUPPORTED_CHAINS`. OFT legs
 * (USDT0) are not listed: their `send` carries LayerZero's fee as `value` on a token deposit (api/_bridges/oft/
 * strategy.ts), which nothing in the answer bounds, so they are refused.
 */
const CCTP: Address = '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d';

function across(spokePool: Address, others: readonly Address[] = []): ChainContracts {
  const contracts = [spokePool, ...others];
  return { targets: contracts, spenders: contracts };
}

/** Across's published production contracts, per EVM mainnet with a SpokePool. */
export const ACROSS_CONTRACTS: ContractAllowlist = new Map([
  [
    1,
    across('0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5', [
      PERIPHERY,
      SWAP_API_PERIPHERY,
      LEGACY_PERIPHERY,
      CCTP,
    ]),
  ],
  [
    10,
    across('0x6f26Bf09B1C792e3228e5467807a900A503c0281', [
      PERIPHERY,
      SWAP_API_PERIPHERY,
      LEGACY_PERIPHERY,
      CCTP,
    ]),
  ],
  [56, across('0x4e8E101924eDE233C13e2D8622DC8aED2872d505', [PERIPHERY, SWAP_API_PERIPHERY])],
  [130, across('0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64', [PERIPHERY, SWAP_API_PERIPHERY, CCTP])],
  [
    137,
    across('0x9295ee1d8C5b022Be115A2AD3c30C72E34e7F096', [
      PERIPHERY,
      SWAP_API_PERIPHERY,
      LEGACY_PERIPHERY,
      CCTP,
    ]),
  ],
  [
    143,
    across('0xd2ecb3afe598b746F8123CaE365a598DA831A449', [
      PERIPHERY,
      '0xe9b0666DFfC176Df6686726CB9aaC78fD83D20d7',
      CCTP,
    ]),
  ],
  [
    232,
    across('0xb234cA484866c811d0e6D3318866F583781ED045', [
      PERIPHERY_ZK,
      '0x8A8cA9c4112c67b7Dae7dF7E89EA45D592362107',
    ]),
  ],
  [288, across('0xBbc6009fEfFc27ce705322832Cb2068F8C1e0A58')],
  [
    324,
    across('0xE0B015E54d54fc84a6cB9B666099c46adE9335FF', [
      PERIPHERY_ZK,
      '0x672b9ba0CE73b69b5F940362F0ee36AAA3F02986',
    ]),
  ],
  [480, across('0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64', [PERIPHERY, SWAP_API_PERIPHERY, CCTP])],
  [999, across('0x35E63eA3eb0fb7A3bc543C71FB66412e1F6B0E04', [PERIPHERY, SWAP_API_PERIPHERY_HYPER, CCTP])],
  [1135, across('0x9552a0a6624A23B848060AE5901659CDDa1f83f8', [PERIPHERY, SWAP_API_PERIPHERY])],
  [1868, across('0x3baD7AD0728f9917d1Bf08af5782dCbD516cDd96', [PERIPHERY, SWAP_API_PERIPHERY])],
  [
    4217,
    across('0x2d4710F04Da90184255782d3715224A6C776955D', [
      PERIPHERY,
      '0x1cFC76f039e01970355Cf73a37B785A81847796C',
    ]),
  ],
  [
    4326,
    across('0x3Db06DA8F0a24A525f314eeC954fC5c6a973d40E', [
      PERIPHERY,
      '0xf0aBCe137a493185c5E768F275E7E931109f8981',
    ]),
  ],
  [
    8453,
    across('0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64', [
      PERIPHERY,
      SWAP_API_PERIPHERY,
      LEGACY_PERIPHERY,
      CCTP,
    ]),
  ],
  [9745, across('0x50039fAEfebef707cFD94D6d462fE6D10B39207a', [PERIPHERY, SWAP_API_PERIPHERY_HYPER])],
  [34443, across('0x3baD7AD0728f9917d1Bf08af5782dCbD516cDd96', [PERIPHERY, SWAP_API_PERIPHERY])],
  [
    42161,
    across('0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A', [
      PERIPHERY,
      SWAP_API_PERIPHERY,
      LEGACY_PERIPHERY,
      CCTP,
    ]),
  ],
  [43114, across('0xE0DB08B3F72931Dca2Ed7323a1053EaC42715bEe')],
  [57073, across('0xeF684C38F94F48775959ECf2012D7E864ffb9dd4', [PERIPHERY, SWAP_API_PERIPHERY])],
  [
    59144,
    across('0x7E63A5f1a8F0B4d0934B2f2327DAED3F6bb2ee75', [
      PERIPHERY,
      '0xE0BCff426509723B18D6b2f0D8F4602d143bE3e0',
      CCTP,
    ]),
  ],
  [81457, across('0x2D509190Ed0172ba588407D4c2df918F955Cc6E1', [PERIPHERY, SWAP_API_PERIPHERY])],
  [534352, across('0x3baD7AD0728f9917d1Bf08af5782dCbD516cDd96', [PERIPHERY, SWAP_API_PERIPHERY])],
  [7777777, across('0x13fDac9F9b4777705db45291bbFF3c972c6d1d97', [PERIPHERY, SWAP_API_PERIPHERY])],
]);
