import 'reflect-metadata';
import { runDistributedApp } from '@svc/composition';
import { AppModule } from './app.module';

/** The gateway app of the distributed composition (BUS=kafka): see README "Distributed mode". */
runDistributedApp({
  name: 'gateway',
  module: AppModule,
  servesBus: false,
  sendsOnBus: true,
  publicApi: true,
});
