import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { API_VERSION } from '@svc/contract';
import { collectProcessMetrics } from '@svc/platform';
import { type FastifyReply } from 'fastify';
import { register } from 'prom-client';
import { READINESS_PROBE, type ReadinessProbe, type ReadinessReport } from './readiness';

/** Liveness for orchestrators, outside the API prefix, on every app's PORT: no dependency is asked. */
@Controller()
export class HealthController {
  @Get('healthz')
  @HttpCode(200)
  healthz() {
    return healthBody();
  }
}

/**
 * Readiness and metrics, outside the API prefix: on PORT for the apps without the partner API, on the partner port
 * of the gateway and the standalone service only with OPS_ON_API_PORT=true (they serve them on OPS_PORT).
 */
@Controller()
export class OpsController {
  constructor(@Inject(READINESS_PROBE) private readonly probe: ReadinessProbe) {
    collectProcessMetrics();
  }

  /** Ready when every dependency answers: 503 with the failing ones named otherwise. Cached for a second. */
  @Get('readyz')
  async readyz(@Res() res: FastifyReply) {
    const report = await this.probe.report();
    void res.status(readinessStatus(report)).send(readinessBody(report));
  }

  /** Prometheus exposition of every metric registered in this process, the Node and process series included. */
  @Get('metrics')
  async metrics(@Res() res: FastifyReply) {
    void res
      .status(200)
      .header('Content-Type', register.contentType)
      .send(await register.metrics());
  }
}

export function healthBody() {
  return { apiVersion: API_VERSION, status: 'ok' };
}

export function readinessStatus(report: ReadinessReport): number {
  return report.ready ? 200 : 503;
}

export function readinessBody(report: ReadinessReport) {
  return { apiVersion: API_VERSION, status: report.ready ? 'ready' : 'not_ready', checks: report.checks };
}
