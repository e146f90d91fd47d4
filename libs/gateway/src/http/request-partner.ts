import { type FastifyRequest } from 'fastify';

const partners = new WeakMap<FastifyRequest, string>();

/** Notes who a request was authenticated as, for the access log written once it is answered. */
export function notePartner(request: FastifyRequest, partnerId: string): void {
  partners.set(request, partnerId);
}

/** The partner a request was authenticated as, if it got that far. */
export function partnerOf(request: FastifyRequest): string | undefined {
  return partners.get(request);
}
