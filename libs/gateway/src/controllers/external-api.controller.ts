import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { API_PREFIX } from '@svc/contract';
import { type Request, type Response } from 'express';
import { ExternalRequestPipeline } from '../pipeline/external-request.pipeline';
import { ROUTES } from '../pipeline/external-route';

/** The partner API. Controllers only name the route; the pipeline does the rest. */
@Controller(API_PREFIX.slice(1))
export class ExternalApiController {
  constructor(private readonly pipeline: ExternalRequestPipeline) {}

  @Get('ping')
  ping(@Req() req: Request, @Res() res: Response) {
    return this.pipeline.handle(req, res, ROUTES.ping, null);
  }

  @Post('intents/quote')
  quote(@Req() req: Request, @Res() res: Response) {
    return this.pipeline.handle(req, res, ROUTES.quote, null);
  }

  @Post('intents/:intentSessionId/prepare')
  prepare(@Req() req: Request, @Res() res: Response, @Param('intentSessionId') id: string) {
    return this.pipeline.handle(req, res, ROUTES.prepare, id);
  }

  @Post('attempts/:attemptId/submitted')
  submitted(@Req() req: Request, @Res() res: Response, @Param('attemptId') id: string) {
    return this.pipeline.handle(req, res, ROUTES.submitted, id);
  }

  @Get('attempts/:attemptId/status')
  status(@Req() req: Request, @Res() res: Response, @Param('attemptId') id: string) {
    return this.pipeline.handle(req, res, ROUTES.status, id);
  }
}
