import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { ExternalApiController } from './controllers/external-api.controller';
import { ErrorResponseFilter } from './http/error-response.filter';
import { ExternalRequestPipeline } from './pipeline/external-request.pipeline';
import { AttemptEventStreams } from './sse/attempt-event-streams';
import { AttemptLiveFeed } from './sse/attempt-live-feed';

/**
 * The HTTP edge (the probes /healthz, /readyz and /metrics are the composition's: every app serves them). The composition root provides the ports it injects (REQUEST_RECORDS, PARTNER_DIRECTORY,
 * MESSAGE_BUS, CLOCK, GATEWAY_OPTIONS, GATEWAY_LOGGER) through `imports` of a global module.
 */
@Module({})
export class GatewayModule {
  static register(): DynamicModule {
    const providers: Provider[] = [
      ExternalRequestPipeline,
      AttemptEventStreams,
      AttemptLiveFeed,
      { provide: APP_FILTER, useClass: ErrorResponseFilter },
    ];
    return { module: GatewayModule, controllers: [ExternalApiController], providers };
  }
}
