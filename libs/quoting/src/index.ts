export * from './quoting.module';
export * from './quoting.options';
