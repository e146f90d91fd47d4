export * from './build-chain-actions';
export * from './atomic-supported';
export * from './chain-actions-input';
export * from './invalid-quoted-execution.error';
export type { PreviewSource, PreviewTarget } from './slice-preview';
export { collectChainWork, type ChainWork } from './collect-chain-work';
