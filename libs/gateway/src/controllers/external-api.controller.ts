import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { API_PREFIX } from '@svc/contract';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { ExternalRequestPipeline } from '../pipeline/external-request.pipeline';
import { ROUTES } from '../pipeline/external-route';

/** The partner API. Controllers only name the route (paths and methods come from ROUTES); the pipeline does the rest. */
@Controller(API_PREFIX.slice(1))
export class ExternalApiController {
  constructor(private readonly pipeline: ExternalRequestPipeline) {}

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
}
