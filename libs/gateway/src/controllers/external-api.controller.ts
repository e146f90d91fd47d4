import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { API_PREFIX, transactionResourceId } from '@svc/contract';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ExternalRequestPipeline } from '../pipeline/external-request.pipeline';
import { ROUTES } from '../pipeline/external-route';
import { AttemptEventStreams } from '../sse/attempt-event-streams';

/** The partner API. Controllers only name the route (paths and methods come from ROUTES); the pipeline does the rest. */
@Controller(API_PREFIX.slice(1))
export class ExternalApiController {
  constructor(
    private readonly pipeline: ExternalRequestPipeline,
    private readonly streams: AttemptEventStreams,
  ) {}

  @Get(ROUTES.ping.path)
  ping(@Req() req: FastifyRequest, @Res() res: FastifyReply) {
    return this.pipeline.answerLocally(req, res, ROUTES.ping);
  }

  @Post(ROUTES.quote.path)
  quote(@Req() req: FastifyRequest, @Res() res: FastifyReply) {
    return this.pipeline.handle(req, res, ROUTES.quote, null);
  }

  @Post(ROUTES.prepare.path)
  prepare(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('intentSessionId') id: string) {
    return this.pipeline.handle(req, res, ROUTES.prepare, id);
  }

  @Post(ROUTES.submitted.path)
  submitted(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('attemptId') id: string) {
    return this.pipeline.handle(req, res, ROUTES.submitted, id);
  }

  @Get(ROUTES.status.path)
  status(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('attemptId') id: string) {
    return this.pipeline.handle(req, res, ROUTES.status, id);
  }

  @Post(ROUTES.searchAttempts.path)
  searchAttempts(@Req() req: FastifyRequest, @Res() res: FastifyReply) {
    return this.pipeline.handle(req, res, ROUTES.searchAttempts, null);
  }

  @Get(ROUTES.transactionAttempt.path)
  transactionAttempt(
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
    @Param('chainId') chainId: string,
    @Param('txHash') txHash: string,
  ) {
    return this.pipeline.handle(req, res, ROUTES.transactionAttempt, transactionResourceId(chainId, txHash));
  }

  @Get(ROUTES.webhookEvents.path)
  webhookEvents(@Req() req: FastifyRequest, @Res() res: FastifyReply) {
    return this.pipeline.handle(req, res, ROUTES.webhookEvents, null);
  }

  @Get(ROUTES.webhookEventsAfter.path)
  webhookEventsAfter(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('cursor') cursor: string) {
    return this.pipeline.handle(req, res, ROUTES.webhookEventsAfter, cursor);
  }

  @Post(ROUTES.webhookRedeliver.path)
  webhookRedeliver(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('eventId') id: string) {
    return this.pipeline.handle(req, res, ROUTES.webhookRedeliver, id);
  }

  @Post(ROUTES.webhookRecover.path)
  webhookRecover(@Req() req: FastifyRequest, @Res() res: FastifyReply) {
    return this.pipeline.handle(req, res, ROUTES.webhookRecover, null);
  }

  /** Server-Sent Events: checked like any GET, then served from the event store until the attempt ends. */
  @Get(ROUTES.attemptEvents.path)
  async attemptEvents(@Req() req: FastifyRequest, @Res() res: FastifyReply, @Param('attemptId') id: string) {
    const { partnerId, requestId } = await this.pipeline.admitLocally(req, ROUTES.attemptEvents, id);
    await this.streams.serve(req, res, { partnerId, requestId, attemptId: id });
  }
}
