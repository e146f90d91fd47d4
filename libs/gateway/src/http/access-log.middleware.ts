import { type NextFunction, type Request, type Response } from 'express';
import { type Logger } from '@svc/platform';

/**
 * One JSON line per request once the response is sent: method, path (query dropped), status, duration,
 * request id and, when authenticated, the partner. Headers and bodies are never logged.
 */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      logger.info(
        {
          requestId: res.getHeader('x-request-id'),
          partnerId: (res.locals as { partnerId?: string }).partnerId,
          method: req.method,
          path: (req.originalUrl ?? req.url ?? '').split('?')[0],
          status: res.statusCode,
          ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        },
        'http request',
      );
    });
    next();
  };
}
