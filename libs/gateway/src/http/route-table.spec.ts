import { API_PREFIX } from '@svc/contract';
import { allowedMethods, routeTemplate } from './route-table';

describe('route table', () => {
  it.each([
    [`${API_PREFIX}/ping`, `${API_PREFIX}/ping`],
    [`${API_PREFIX}/intents/quote`, `${API_PREFIX}/intents/quote`],
    [`${API_PREFIX}/intents/is_1/prepare/`, `${API_PREFIX}/intents/:intentSessionId/prepare`],
    [`${API_PREFIX}/attempts/at_1/submitted`, `${API_PREFIX}/attempts/:attemptId/submitted`],
    [`${API_PREFIX}/attempts/at_1/status`, `${API_PREFIX}/attempts/:attemptId/status`],
    ['/healthz', '/healthz'],
    ['/readyz', '/readyz'],
    ['/metrics', '/metrics'],
  ])('%s → template %s', (path, template) => {
    expect(routeTemplate(path)).toBe(template);
  });

  it.each([
    '/',
    '/ping',
    `${API_PREFIX}/healthz`,
    `${API_PREFIX}/intents/a/b/prepare`,
    `${API_PREFIX}/intents//prepare`,
    '/metrics.json',
  ])('%s → no template', (path) => {
    expect(routeTemplate(path)).toBeNull();
  });

  it('allows the table methods on a known path, HEAD with GET, nothing elsewhere', () => {
    expect(allowedMethods(`${API_PREFIX}/intents/is_1/prepare`)).toEqual(['POST']);
    expect(allowedMethods(`${API_PREFIX}/attempts/at_1/status`)).toEqual(['GET', 'HEAD']);
    expect(allowedMethods('/readyz/')).toEqual(['GET', 'HEAD']);
    expect(allowedMethods('/nowhere')).toEqual([]);
  });
});
