import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { API_VERSION } from '@svc/contract';
import { EVENT_STORE, type EventStore } from '@svc/event-store';
import { type Response } from 'express';
import { register } from 'prom-client';

/** Unauthenticated probes for orchestrators, outside the API prefix. */
@Controller()
export class HealthController {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  @Get('healthz')
  @HttpCode(200)
  healthz() {
    return { apiVersion: API_VERSION, status: 'ok' };
  }

  /** Prometheus exposition of every metric registered in this process (webhooks, …). */
  @Get('metrics')
  async metrics(@Res() res: Response) {
    res
      .status(200)
      .setHeader('Content-Type', register.contentType)
      .send(await register.metrics());
  }

  @Get('readyz')
  async readyz(@Res() res: Response) {
    try {
      await this.store.ping();
      res.status(200).json({ apiVersion: API_VERSION, status: 'ready', checks: { eventStore: 'ok' } });
    } catch {
      res
        .status(503)
        .json({ apiVersion: API_VERSION, status: 'not_ready', checks: { eventStore: 'unreachable' } });
    }
  }
}
