import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import {
  BAD_CHECKSUM,
  NATIVE,
  POLICY,
  quoteBody,
  sourceBody,
  targetBody,
  USDC_ETHEREUM,
  WALLET,
} from './quote-body.fixture';
import { validateQuoteRequest } from './validate-quote-request';

const validate = (body: unknown) => validateQuoteRequest(body, POLICY);
const hex = USDC_ETHEREUM.slice(2);

const ACCOUNT_ADDRESSES: [string, string][] = [
  ['EIP-55 checksummed', USDC_ETHEREUM],
  ['all lower case', USDC_ETHEREUM.toLowerCase()],
  ['all upper case hex', `0x${hex.toUpperCase()}`],
];
// The zero address names a native token; nobody holds it, so it is never a wallet or a recipient.
const VALID_ADDRESSES: [string, string][] = [...ACCOUNT_ADDRESSES, ['the zero address', NATIVE]];

const INVALID_ADDRESSES: [string, unknown][] = [
  ['a wrong EIP-55 checksum', BAD_CHECKSUM],
  ['39 hex characters', `0x${hex.slice(1)}`],
  ['41 hex characters', `0x${hex}0`],
  ['no 0x prefix', hex],
  ['an upper-case 0X prefix', `0X${hex}`],
  ['a non-hex character', `0x${hex.slice(1)}g`],
  ['surrounding whitespace', ` ${USDC_ETHEREUM}`],
  ['an empty string', ''],
  ['a number', 1],
  ['null', null],
];

describe('validateQuoteRequest: walletAddress', () => {
  it.each(ACCOUNT_ADDRESSES)('accepts %s', (_, address) => {
    expect(valueOf(validate(quoteBody({ walletAddress: address }))).walletAddress).toBe(address);
  });

  it.each([...INVALID_ADDRESSES, ['the zero address', NATIVE], ['absence', undefined]])(
    'rejects %s',
    (_, address) => {
      expect(errorsOf(validate(quoteBody({ walletAddress: address })))).toEqual([
        ['invalid_wallet_address', 'walletAddress'],
      ]);
    },
  );
});

describe('validateQuoteRequest: recipient', () => {
  it('defaults to walletAddress when absent', () => {
    expect(valueOf(validate(quoteBody())).recipient).toBe(WALLET);
  });

  it.each(ACCOUNT_ADDRESSES)('accepts %s', (_, address) => {
    expect(valueOf(validate(quoteBody({ recipient: address }))).recipient).toBe(address);
  });

  it.each([...INVALID_ADDRESSES, ['the zero address', NATIVE]])('rejects %s', (_, address) => {
    expect(errorsOf(validate(quoteBody({ recipient: address })))).toEqual([
      ['invalid_recipient', 'recipient'],
    ]);
  });
});

describe('validateQuoteRequest: token addresses', () => {
  it.each(VALID_ADDRESSES)('accepts %s as a source address', (_, address) => {
    expect(valueOf(validate(quoteBody({ sources: [sourceBody({ address })] }))).sources[0]?.address).toBe(
      address,
    );
  });

  it.each(INVALID_ADDRESSES)('rejects %s as a source address', (_, address) => {
    expect(errorsOf(validate(quoteBody({ sources: [sourceBody({ address })] })))).toEqual([
      ['invalid_token_address', 'sources[0].address'],
    ]);
  });

  it.each(INVALID_ADDRESSES)('rejects %s as a target address', (_, address) => {
    expect(errorsOf(validate(quoteBody({ target: targetBody({ address }) })))).toEqual([
      ['invalid_token_address', 'target.address'],
    ]);
  });

  it.each(INVALID_ADDRESSES)('rejects %s as a target token address', (_, address) => {
    expect(errorsOf(validate(quoteBody({ target: targetBody({}, { address }) })))).toEqual([
      ['invalid_token_address', 'target.targetToken.address'],
    ]);
  });

  it.each([
    ['missing from a source', { sources: [{ chainId: 1, amount: '1', decimals: 6 }] }, 'sources[0].address'],
    [
      'missing from the target',
      { target: { chainId: 1, targetToken: { address: USDC_ETHEREUM, decimals: 6 } } },
      'target.address',
    ],
  ])('rejects an address %s', (_, overrides, field) => {
    expect(errorsOf(validate(quoteBody(overrides)))).toEqual([['invalid_token_address', field]]);
  });
});
