import { type onRequestHookHandler } from 'fastify';
import { API_VERSION, HEADER } from '@svc/contract';

/** Every response, including 404s and probes, carries `X-Service-Api-Version: 1`. */
export const apiVersionHeader: onRequestHookHandler = (_request, reply, done) => {
  reply.header(HEADER.apiVersion, API_VERSION);
  done();
};
