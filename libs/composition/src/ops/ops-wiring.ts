import { type INestApplication, type Type } from '@nestjs/common';
import { type Logger } from '@svc/platform';
import { type AppConfig } from '../config/app-config';
import { HealthController, OpsController } from './ops.controller';
import { type OpsServer, startOpsServer } from './ops-server';
import { READINESS_PROBE, type ReadinessProbe } from './readiness';

/**
 * The probe controllers on an app's PORT: /healthz always; /readyz and /metrics too for an app without the partner
 * API (PORT carries nothing else) or with OPS_ON_API_PORT=true; otherwise they are on the ops listener only.
 */
export function opsControllers(config: AppConfig, publicApi: boolean): Type[] {
  return !publicApi || config.http.ops.onApiPort ? [HealthController, OpsController] : [HealthController];
}

/** Starts the ops listener of an app serving the partner API (OPS_PORT, on HOST), sharing the app's cached probe. */
export function listenOps(
  app: INestApplication,
  config: AppConfig,
  logger: Logger,
  port = config.http.ops.port,
): Promise<OpsServer> {
  return startOpsServer({
    host: config.http.host,
    port,
    probe: app.get<symbol, ReadinessProbe>(READINESS_PROBE),
    logger,
  });
}
