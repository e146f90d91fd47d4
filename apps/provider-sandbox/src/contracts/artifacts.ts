/** The sandbox contracts' ABIs and bytecode: one generated file (`npm run contracts:build`), kept in libs/testing. */
export {
  AcrossSpokePoolArtifact,
  GasPriceOracleArtifact,
  MayanForwarderArtifact,
  MayanSwapRouterArtifact,
  MayanSwiftArtifact,
  MayanSwiftV2Artifact,
  MessageTransmitterV2Artifact,
  Multicall3Artifact,
  NativeFillerArtifact,
  RelayDepositoryArtifact,
  TestTokenArtifact,
  TetherTokenArtifact,
  TokenMessengerV2Artifact,
  WrappedNativeArtifact,
} from '@svc/testing';
