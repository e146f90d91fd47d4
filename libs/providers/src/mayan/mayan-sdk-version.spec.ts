import { MalformedResponseError } from '../response/malformed-response.error';
import {
  MAYAN_SDK_VERSION_PARAM,
  readMinimumSdkVersion,
  supportsSdkVersion,
  type SdkVersion,
} from './mayan-sdk-version';

describe('the swap SDK version we claim (swap-sdk v15.2.0 src/utils.ts)', () => {
  it('is sent as 15_2_0', () => {
    expect(MAYAN_SDK_VERSION_PARAM).toBe('15_2_0');
  });

  it.each<[SdkVersion, boolean]>([
    [[10, 0, 0], true],
    [[15, 1, 9], true],
    [[15, 2, 0], true],
    [[14, 99, 99], true],
    [[15, 2, 1], false],
    [[15, 3, 0], false],
    [[16, 0, 0], false],
  ])('minimumSdkVersion %j supported: %s (checkSdkVersionSupport)', (minimum, supported) => {
    expect(supportsSdkVersion(minimum)).toBe(supported);
  });

  it.each<[string, unknown]>([
    ['absent', undefined],
    ['not an array', '15_2_0'],
    ['two parts', [15, 2]],
    ['a string part', [15, '2', 0]],
    ['a negative part', [15, -1, 0]],
  ])('a minimumSdkVersion that is %s is malformed', (_label, value) => {
    expect(() => readMinimumSdkVersion(value)).toThrow(MalformedResponseError);
  });
});
