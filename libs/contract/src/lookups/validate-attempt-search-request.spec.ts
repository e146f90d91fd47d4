import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import { encodeSearchCursor } from './search-cursor';
import { validateAttemptSearchRequest } from './validate-attempt-search-request';

const POLICY = { maxFeeBps: 300, callbackUrl: null };
const validate = (body: unknown) => validateAttemptSearchRequest(body, POLICY);
const WALLET = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

describe('validateAttemptSearchRequest', () => {
  it('lowercases addresses, converts times to epoch ms, takes one status as a list and defaults the limit', () => {
    expect(
      valueOf(
        validate({ walletAddress: WALLET, status: 'settled', createdFrom: '2026-03-01T01:00:00+01:00' }),
      ),
    ).toEqual({
      walletAddress: WALLET.toLowerCase(),
      recipient: null,
      statuses: ['settled'],
      createdFrom: Date.parse('2026-03-01T00:00:00Z'),
      createdTo: null,
      limit: 50,
      after: null,
    });
  });

  it.each([
    ['no body', undefined, [['search_filter_required', '']]],
    ['an array', [], [['invalid_request_body', '']]],
    ['no wallet nor recipient', { limit: 5 }, [['search_filter_required', '']]],
    [
      'an unknown field first',
      { recipient: WALLET, limit: 0, sort: 'asc' },
      [
        ['unknown_field', 'sort'],
        ['invalid_limit', 'limit'],
      ],
    ],
    [
      'a wallet with a bad checksum',
      { walletAddress: WALLET.replace('d8dA', 'd8DA') },
      [['invalid_wallet_address', 'walletAddress']],
    ],
    [
      'duplicate statuses',
      { recipient: WALLET, status: ['failed', 'failed'] },
      [['invalid_status_filter', 'status']],
    ],
    ['a date only', { recipient: WALLET, createdTo: '2026-03-01' }, [['invalid_time_range', 'createdTo']]],
    [
      'an impossible date',
      { recipient: WALLET, createdTo: '2026-02-30T00:00:00Z' },
      [['invalid_time_range', 'createdTo']],
    ],
    [
      'equal bounds',
      { recipient: WALLET, createdFrom: '2026-03-01T00:00:00Z', createdTo: '2026-03-01T00:00:00Z' },
      [['invalid_time_range', 'createdTo']],
    ],
    ['a fractional limit', { recipient: WALLET, limit: 2.5 }, [['invalid_limit', 'limit']]],
    ['a cursor that is not a string', { recipient: WALLET, cursor: 5 }, [['invalid_cursor', 'cursor']]],
  ])('refuses %s', (_, body, errors) => {
    expect(errorsOf(validate(body))).toEqual(errors);
  });

  it('takes back the cursor it issued for the same filters only (any status order)', () => {
    const filters = valueOf(validate({ walletAddress: WALLET, status: ['failed', 'settled'] }));
    const cursor = encodeSearchCursor(filters, { createdAt: 1_000, attemptId: 'at_9' });
    expect(valueOf(validate({ walletAddress: WALLET, status: ['settled', 'failed'], cursor })).after).toEqual(
      {
        createdAt: 1_000,
        attemptId: 'at_9',
      },
    );
    expect(errorsOf(validate({ walletAddress: WALLET, cursor }))).toEqual([['invalid_cursor', 'cursor']]);
    expect(errorsOf(validate({ recipient: WALLET, status: ['failed', 'settled'], cursor }))).toEqual([
      ['invalid_cursor', 'cursor'],
    ]);
  });
});
