import 'reflect-metadata';
import { runDistributedApp } from '@svc/composition';
import { SETTLEMENT_QUERY_PATTERNS } from '@svc/settlement';
import { AppModule } from './app.module';

/** The gateway app of the distributed composition (BUS=kafka): see docs/operations/distributed.md. */
runDistributedApp({
  name: 'gateway',
  module: AppModule,
  servesBus: false,
  sendsOnBus: true,
  publicApi: true,
  // Read-only queries, served in this process by SettlementQueriesModule: no Kafka round trip.
  servesLocally: SETTLEMENT_QUERY_PATTERNS,
});
