import 'reflect-metadata';
import { runDistributedApp } from '@svc/composition';
import { AppModule } from './app.module';

/** The quoting app of the distributed composition (BUS=kafka): see docs/operations/distributed.md. */
runDistributedApp({ name: 'quoting', module: AppModule, servesBus: true, sendsOnBus: false });
