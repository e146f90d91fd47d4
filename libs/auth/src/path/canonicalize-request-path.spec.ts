import { canonicalizeRequestPath, type PathRejection } from './canonicalize-request-path';

describe('canonicalizeRequestPath', () => {
  it.each([
    ['/api/external/ping', '/api/external/ping'],
    ['/api/external/ping/', '/api/external/ping'],
    ['/api/external/intents/is_01HX-abc.def~1/prepare', '/api/external/intents/is_01HX-abc.def~1/prepare'],
    ['/api/external/attempts/att:1@x/status/', '/api/external/attempts/att:1@x/status'],
    ['/api/external/.well-known/..x', '/api/external/.well-known/..x'],
    ['/', '/'],
  ])('accepts %s as %s', (raw, path) => {
    expect(canonicalizeRequestPath(raw)).toEqual({ ok: true, path });
  });

  it.each<[string, PathRejection]>([
    ['api/external/ping', 'not_absolute'],
    ['', 'not_absolute'],
    ['*', 'not_absolute'],
    ['http://host/api/external/ping', 'not_absolute'],
    ['/api/external/ping?', 'query_string'],
    ['/api/external/ping?a=1', 'query_string'],
    ['/api/external/ping/?', 'query_string'],
    ['/api/external/ping#', 'fragment'],
    ['/api/external/ping#top', 'fragment'],
    ['/api/external/intents%2Fx/prepare', 'percent_encoded'],
    ['/api/external/intents%2fx/prepare', 'percent_encoded'],
    ['/api/external/intents/x%5Cy/prepare', 'percent_encoded'],
    ['/api/external/intents/x%5cy/prepare', 'percent_encoded'],
    ['/api/external/%2E%2E/ping', 'percent_encoded'],
    ['/api/external/%2e/ping', 'percent_encoded'],
    ['/api/external/p%69ng', 'percent_encoded'],
    ['/api/external/ping%', 'percent_encoded'],
    ['/api/external\\ping', 'backslash'],
    ['/api/external/ping\\', 'backslash'],
    ['/api/external/pi ng', 'invalid_character'],
    ['/api/external/pïng', 'invalid_character'],
    ['/api/external/ping\t', 'invalid_character'],
    ['/api/external/./ping', 'dot_segment'],
    ['/api/external/../external/ping', 'dot_segment'],
    ['/api/external/ping/.', 'dot_segment'],
    ['/api/external/ping/..', 'dot_segment'],
    ['/api/external/ping/./', 'dot_segment'],
    ['/api/external/ping/../', 'dot_segment'],
    ['/./', 'dot_segment'],
    ['/api//external/ping', 'empty_segment'],
    ['//api/external/ping', 'empty_segment'],
    ['/api/external/ping//', 'empty_segment'],
    ['//', 'empty_segment'],
  ])('rejects %j (%s)', (raw, reason) => {
    expect(canonicalizeRequestPath(raw)).toEqual({ ok: false, reason });
  });
});
