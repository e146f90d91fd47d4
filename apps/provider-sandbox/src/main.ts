/**
 * The provider sandbox (local anvil chains, test tokens and bridge contracts, an HTTP simulator of the relay /
 * across / mayan dialects) arrives with the provider-adapters issue.
 */
process.stderr.write('provider-sandbox: not available yet (see the provider adapters issue)\n');
process.exit(2);
