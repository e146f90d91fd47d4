export * from './lease.events';
export * from './lease.commands';
export * from './lease.state';
export { evolveLease } from './evolve-lease';
export { decideLease } from './decide-lease';
export { leaseDecider } from './lease.decider';
export { LeaseRefusedError, type LeaseRefusalReason } from './lease-refused.error';
export * from './member.events';
export { type MemberCommand } from './member.commands';
export { type MembersState } from './members.state';
export { membersDecider } from './members.decider';
export { liveMembers } from './live-members';
export { fairShare } from './fair-share';
export { shardOf } from './shard-of';
export { planRebalance, type RebalancePlan } from './plan-rebalance';
export { leaseStreamId, membersStreamId } from './lease-streams';
export { ShardLeases } from './shard-leases';
export { type ShardLeasesOptions } from './shard-leases.options';
export { InvalidShardLeasesOptionsError } from './invalid-shard-leases-options.error';
export { ShardLeasesStoppedError } from './shard-leases-stopped.error';
export * from './work-sharing';
export { ShardedWorker, type ShardedWorkerOptions } from './worker/sharded-worker';
export {
  CatchUpWorker,
  type CatchUpStats,
  type CatchUpWorkerOptions,
  KEPT_QUARANTINED_EVENTS,
} from './worker/catch-up-worker';
export { type WorkerLogger, errorMessage } from './worker/worker-logger';
export {
  readWorkerCheckpoint,
  writeWorkerCheckpoint,
  workerCheckpointStream,
  type WorkerCheckpoint,
} from './worker/worker-checkpoint';
