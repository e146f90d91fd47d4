export * from './execution.module';
