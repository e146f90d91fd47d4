import { type BenchRig } from '../bench-rig';
import { processCpuMs } from '../process-cpu';
import { type QuoteSample, type QuoteTimer } from '../quote-timer';
import { type FanOut } from '../stub/fan-out-log';

export interface ReplayedQuotes {
  samples: QuoteSample[];
  /** Rounds of provider calls one quote waits for in turn (FanOutLog): its floor is rounds × the stubs' delay. */
  rounds: number;
  /** Provider calls one quote made. */
  calls: number;
  /** The same fan-out sent straight to the stubs from here, round after round: ms until the last answered. */
  stubsAloneMs: number;
  /** Calls of the timed quotes that were not replays (forwarded to the sandbox): 0 in a clean run. */
  missed: number;
  /** CPU per timed quote: the service's (null where /proc cannot be read), and this process's (stubs and client). */
  serviceCpuMs: number | null;
  benchCpuMs: number;
}

/**
 * One repeat of timed quotes over replayed provider answers. The stubs forget what they recorded and one untimed quote
 * records the sandbox's answers afresh, since the sandbox's Across quotes with a destination swap expire after 30 s
 * and a replayed expired answer would turn the quote `expired`; the timed quotes follow at once. Then the last timed
 * quote's fan-out is replayed straight at the stubs: the harness's own floor.
 */
export async function timeReplayedQuotes(
  rig: BenchRig,
  timer: QuoteTimer,
  body: object,
  quotes: number,
): Promise<ReplayedQuotes> {
  rig.stub.forget();
  await timer.time(body);
  rig.stub.takeFanOut();
  const forwarded = rig.stub.counts.forwarded;
  const service = processCpuMs(rig.service.pid);
  const bench = process.cpuUsage();
  const samples: QuoteSample[] = [];
  let fanOut: FanOut = { rounds: [] };
  for (let q = 0; q < quotes; q += 1) {
    samples.push(await timer.time(body));
    fanOut = rig.stub.takeFanOut();
  }
  const serviceAfter = processCpuMs(rig.service.pid);
  const benchCpu = process.cpuUsage(bench);
  const missed = rig.stub.counts.forwarded - forwarded;
  // The last timed quote's rounds (at the stubs' delay a follow-up arrives well after its first round), replayed
  // twice: the second runs on open connections, as the service's calls do.
  await rig.stub.replay(fanOut);
  const stubsAloneMs = await rig.stub.replay(fanOut);
  return {
    samples,
    rounds: fanOut.rounds.length,
    calls: fanOut.rounds.flat().length,
    stubsAloneMs,
    missed,
    serviceCpuMs: service === null || serviceAfter === null ? null : (serviceAfter - service) / quotes,
    benchCpuMs: (benchCpu.user + benchCpu.system) / 1000 / quotes,
  };
}
