export {
  type ClassificationStats,
  type ClassifiedEvent,
  classifyEvent,
  EventClassifier,
  type EventClassifierOptions,
  type QuarantinedEvent,
  quarantinedEvent,
} from './classify-event';
export {
  type DeciderEventShapes,
  eventsOfDecider,
  type Projected,
  type ProjectedEvents,
  projectedEvents,
} from './projected-events';
export { isRecord, perReadModelDb, projection, type Projection, type ReadModelDb } from './projection';
export {
  ProjectionRunner,
  type ProjectionRunnerOptions,
  projectionsCatchingUp,
  type ProjectionStats,
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
