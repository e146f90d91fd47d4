export * from './quoting.module';
