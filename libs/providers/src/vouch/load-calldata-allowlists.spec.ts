import { ConfigError } from '@svc/platform';
import { ACROSS_CONTRACTS } from './across-contracts';
import { loadCalldataAllowlists } from './load-calldata-allowlists';
import { RELAY_CONTRACTS } from './relay-contracts';

const FORWARDER = '0x337685fdaB40D39bd02028545a4FfA7D287cC3E2';
const SANDBOX = '0x8ce361602B935680E8DeC218b820ff5056BeB7af';

describe('loadCalldataAllowlists', () => {
  it("defaults to the providers' published contracts, Mayan's forwarder on every chain Mayan serves", () => {
    const lists = loadCalldataAllowlists({}, { mayanForwarder: FORWARDER });
    expect(lists.relay).toBe(RELAY_CONTRACTS);
    expect(lists.across).toBe(ACROSS_CONTRACTS);
    expect(lists.mayan.get(42161)).toEqual({ targets: [FORWARDER], spenders: [FORWARDER] });
  });

  it("replaces a provider's defaults entirely with its variable (a sandbox names its own contracts)", () => {
    const lists = loadCalldataAllowlists(
      {
        RELAY_CONTRACTS: JSON.stringify({
          1: { targets: [SANDBOX], spenders: [SANDBOX] },
          8453: { targets: [SANDBOX] },
        }),
      },
      { mayanForwarder: FORWARDER },
    );
    expect([...lists.relay.entries()]).toEqual([
      [1, { targets: [SANDBOX], spenders: [SANDBOX] }],
      [8453, { targets: [SANDBOX], spenders: [] }],
    ]);
    expect(lists.across).toBe(ACROSS_CONTRACTS);
  });

  it.each([
    ['ACROSS_CONTRACTS', 'not json'],
    ['ACROSS_CONTRACTS', '["0x8ce361602B935680E8DeC218b820ff5056BeB7af"]'],
    ['MAYAN_CONTRACTS', '{"base": {"targets": []}}'],
    ['RELAY_CONTRACTS', '{"1": ["0x8ce361602B935680E8DeC218b820ff5056BeB7af"]}'],
    ['RELAY_CONTRACTS', '{"1": {"targets": ["0x1234"]}}'],
    ['RELAY_CONTRACTS', '{"1": {"spenders": "0x8ce361602B935680E8DeC218b820ff5056BeB7af"}}'],
  ])('a bad %s (%s) stops with a ConfigError naming it', (name, value) => {
    const load = () => loadCalldataAllowlists({ [name]: value }, { mayanForwarder: FORWARDER });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(name);
  });
});
