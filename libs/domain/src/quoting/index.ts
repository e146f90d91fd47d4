export * from './slice-quote';
export * from './route-evaluation';
export * from './evaluate-leg';
export * from './select-routes';
export * from './usd';
