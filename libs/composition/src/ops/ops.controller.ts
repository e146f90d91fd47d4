import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { API_VERSION } from '@svc/contract';
import { type FastifyReply } from 'fastify';
import { register } from 'prom-client';
import { checkReadiness, READINESS_CHECKS, type ReadinessCheck } from './readiness';

/** A dependency that does not answer within this is reported unreachable. */
const CHECK_TIMEOUT_MS = 2000;

/** Unauthenticated probes for orchestrators, outside the API prefix; served by every app. */
@Controller()
export class OpsController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  @Get('healthz')
  @HttpCode(200)
  healthz() {
    return { apiVersion: API_VERSION, status: 'ok' };
  }

  /** Ready when every dependency answers: 503 with the failing ones named otherwise. */
  @Get('readyz')
  async readyz(@Res() res: FastifyReply) {
    const report = await checkReadiness(this.checks, CHECK_TIMEOUT_MS);
    void res
      .status(report.ready ? 200 : 503)
      .send({ apiVersion: API_VERSION, status: report.ready ? 'ready' : 'not_ready', checks: report.checks });
  }

  /** Prometheus exposition of every metric registered in this process. */
  @Get('metrics')
  async metrics(@Res() res: FastifyReply) {
    void res
      .status(200)
      .header('Content-Type', register.contentType)
      .send(await register.metrics());
  }
}
