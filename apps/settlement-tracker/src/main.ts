import 'reflect-metadata';
import { runDistributedApp } from '@svc/composition';
import { AppModule } from './app.module';

/** The settlement-tracker app of the distributed composition (BUS=kafka): see docs/operations/distributed.md. */
runDistributedApp({ name: 'settlement-tracker', module: AppModule, servesBus: true, sendsOnBus: false });
