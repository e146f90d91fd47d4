export {
  isRecord,
  perReadModelDb,
  projection,
  type Projected,
  type Projection,
  type ReadModelDb,
} from './projection';
export {
  ProjectionRunner,
  type ProjectionRunnerOptions,
  type ProjectionStats,
  type QuarantinedEvent,
} from './projection-runner';
export { openReadModelDatabase } from './read-model-database';
export { READ_MODELS } from './read-models.token';
export {
  listReadModelSnapshots,
  type ReadModelSnapshot,
  ReadModelSnapshotter,
  type ReadModelSnapshotterOptions,
  restoreReadModelSnapshot,
  type SnapshotLogger,
} from './read-model-snapshots';
