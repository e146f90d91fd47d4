import { publicRpcUrl } from './build-manifest';

describe('publicRpcUrl', () => {
  it('keeps the loopback URL the sandbox uses itself when no public host is set', () => {
    expect(publicRpcUrl('http://127.0.0.1:8545', undefined)).toBe('http://127.0.0.1:8545');
  });

  it('names the public host, keeping the port, for the manifest and chains.json', () => {
    expect(publicRpcUrl('http://127.0.0.1:8546', 'provider-sandbox')).toBe('http://provider-sandbox:8546');
  });
});
