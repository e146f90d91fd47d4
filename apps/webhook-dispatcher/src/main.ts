import 'reflect-metadata';
import { runDistributedApp } from '@svc/composition';
import { AppModule } from './app.module';

/** The webhook-dispatcher app of the distributed composition (BUS=kafka): see docs/operations/distributed.md. */
runDistributedApp({ name: 'webhook-dispatcher', module: AppModule, servesBus: true, sendsOnBus: true });
