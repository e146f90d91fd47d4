import { auth, NEW_SECRET, OLD_SECRET, signedV1, signedV2, V2_SECRET } from './signed-request.test-helper';

describe('authenticateRequest: a partner in the middle of a secret rotation', () => {
  it.each([
    ['v2, the new secret', signedV2({ partnerId: 'partner-rotating', secret: NEW_SECRET }), 'current'],
    [
      'v2, the secret being retired',
      signedV2({ partnerId: 'partner-rotating', secret: OLD_SECRET }),
      'previous',
    ],
    ['v1, the new secret', signedV1({ partnerId: 'partner-rotating-v1', secret: NEW_SECRET }), 'current'],
    [
      'v1, the secret being retired',
      signedV1({ partnerId: 'partner-rotating-v1', secret: OLD_SECRET }),
      'previous',
    ],
  ])(
    'given a request signed with %s, then it verifies and says which secret did',
    (_label, request, secret) => {
      expect(auth(request)).toMatchObject({ ok: true, secret });
    },
  );

  it('given a third secret, then it is a bad signature like any other', () => {
    expect(auth(signedV2({ partnerId: 'partner-rotating', secret: V2_SECRET }))).toMatchObject({
      ok: false,
      code: 'external_auth_signature_invalid',
    });
  });

  it('given a partner outside a rotation, then the key computed in place of a previous secret verifies nothing', () => {
    expect(auth(signedV2({ secret: 'no-rotation-decoy-secret' }))).toMatchObject({
      ok: false,
      code: 'external_auth_signature_invalid',
    });
    expect(auth(signedV2())).toMatchObject({ ok: true, secret: 'current' });
  });
});
