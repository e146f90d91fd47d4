import { type ProviderName } from '@svc/contract';
import { consideredProviders } from './considered-providers';

const ALL: ProviderName[] = ['relay', 'across', 'mayan', 'symbiosis', 'fly'];

describe('consideredProviders: the request ∩ the partner ∩ the routable providers, in provider order', () => {
  it.each([
    [
      'request omitted: every provider the partner allows',
      undefined,
      ['across', 'relay'],
      ['relay', 'across'],
    ],
    ['request [] means none, whatever the partner allows', [], ALL, []],
    ['a provider the partner does not allow is dropped', ['relay', 'mayan'], ['relay', 'across'], ['relay']],
    ['a partner allowing none leaves none', undefined, [], []],
    [
      'symbiosis and fly never route, even when both sides allow them',
      ['symbiosis', 'fly', 'mayan'],
      ALL,
      ['mayan'],
    ],
    [
      'the request order does not matter: relay, across, mayan',
      ['mayan', 'across', 'relay'],
      ALL,
      ['relay', 'across', 'mayan'],
    ],
    [
      'the partner order does not matter either',
      undefined,
      ['mayan', 'fly', 'across', 'relay'],
      ['relay', 'across', 'mayan'],
    ],
  ] as [string, ProviderName[] | undefined, ProviderName[], ProviderName[]][])(
    '%s',
    (_name, requested, partnerAllowed, expected) => {
      expect(consideredProviders(requested, partnerAllowed)).toEqual(expected);
    },
  );
});
