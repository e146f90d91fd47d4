import { type NextFunction, type Request, type Response } from 'express';
import { API_VERSION, HEADER } from '@svc/contract';

/** Every response, including 404s and probes, carries `X-Service-Api-Version: 1`. */
export function apiVersionHeader(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader(HEADER.apiVersion, API_VERSION);
  next();
}
