import { register } from 'prom-client';

/**
 * The metric registered under `name` on the default registry, created on first use: a module loaded twice (jest
 * module registries, two compositions in one process) must not register a metric twice.
 */
export function registeredMetric<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}
