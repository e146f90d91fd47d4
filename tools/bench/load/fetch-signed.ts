import { BenchFailure } from '../bench-failure';
import { type BenchPartner, signedGet } from './signed-api-request';

/** One signed GET outside any load run (to read what a load run will ask for); anything but 200 fails the run. */
export async function fetchSigned(baseUrl: string, partner: BenchPartner, path: string): Promise<string> {
  const res = await fetch(baseUrl + path, { headers: signedGet(partner, path).headers });
  const text = await res.text();
  if (res.status !== 200) throw new BenchFailure(`GET ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}
