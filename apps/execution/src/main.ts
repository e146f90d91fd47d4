import 'reflect-metadata';
import { runDistributedApp } from '@svc/composition';
import { AppModule } from './app.module';

/** The execution app of the distributed composition (BUS=kafka): see docs/operations/distributed.md. */
runDistributedApp({ name: 'execution', module: AppModule, servesBus: true, sendsOnBus: false });
