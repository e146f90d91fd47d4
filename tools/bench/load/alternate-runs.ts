import { type ChildServer } from '../child/start-child-server';
import { type ServerLoad } from './measure-load';

/**
 * One run on the service and one on the bare baseline per repeat, each going first in turn, so that a machine whose
 * load drifts during the bench favours neither side.
 */
export async function alternateRuns(
  servers: { service: ChildServer; bare: ChildServer },
  repeats: number,
  run: (server: ChildServer) => Promise<ServerLoad>,
  onRepeat: (repeat: number, service: ServerLoad, bare: ServerLoad) => void,
): Promise<{ service: ServerLoad[]; bare: ServerLoad[] }> {
  const service: ServerLoad[] = [];
  const bare: ServerLoad[] = [];
  for (let r = 0; r < repeats; r += 1) {
    if (r % 2 === 0) {
      service.push(await run(servers.service));
      bare.push(await run(servers.bare));
    } else {
      bare.push(await run(servers.bare));
      service.push(await run(servers.service));
    }
    onRepeat(r + 1, service[r], bare[r]);
  }
  return { service, bare };
}
