import { createProviderAdapters } from './create-provider-adapters';
import { loadProvidersConfig } from './providers-config';

describe('createProviderAdapters', () => {
  it('gives one adapter per routable provider, each named as its key', () => {
    const adapters = createProviderAdapters(loadProvidersConfig({}));
    expect(Object.keys(adapters).sort()).toEqual(['across', 'mayan', 'relay']);
    for (const [key, adapter] of Object.entries(adapters)) expect(adapter.name).toBe(key);
  });
});
