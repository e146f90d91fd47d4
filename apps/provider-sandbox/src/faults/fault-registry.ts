import { type SandboxProvider } from '../pricing/sandbox-provider';
import { type ProviderFault } from './provider-fault';

/** The faults in force, one per provider; a later fault for the same provider replaces the earlier one. */
export class FaultRegistry {
  private readonly faults = new Map<SandboxProvider, ProviderFault>();

  constructor(initial: readonly ProviderFault[] = []) {
    this.apply(initial);
  }

  apply(faults: readonly ProviderFault[]): void {
    for (const fault of faults) this.faults.set(fault.provider, fault);
  }

  /** Replaces every fault with `faults` (an empty list clears them). */
  replace(faults: readonly ProviderFault[]): void {
    this.faults.clear();
    this.apply(faults);
  }

  clear(provider?: SandboxProvider): void {
    if (provider) this.faults.delete(provider);
    else this.faults.clear();
  }

  get(provider: SandboxProvider): ProviderFault | undefined {
    return this.faults.get(provider);
  }

  list(): ProviderFault[] {
    return [...this.faults.values()];
  }

  isRouteUnavailable(provider: SandboxProvider, tokens: readonly string[]): boolean {
    const blocked = this.faults.get(provider)?.routeUnavailableTokens?.map((t) => t.toLowerCase()) ?? [];
    return tokens.some((t) => blocked.includes(t.toLowerCase()));
  }
}
