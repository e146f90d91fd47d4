export * from './chain-source-gas-estimator';
export { OP_STACK_CHAIN_IDS } from './op-stack-l1-fee';
export { PER_CALL_GAS, PER_DEPOSIT_GAS } from './per-call-gas';
