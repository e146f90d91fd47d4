/** The sandbox contracts' ABIs and bytecode: one generated file (`npm run contracts:build`), kept in libs/testing. */
export {
  AcrossSpokePoolArtifact,
  MayanForwarderArtifact,
  MayanSwapRouterArtifact,
  MayanSwiftArtifact,
  MayanSwiftV2Artifact,
  RelayDepositoryArtifact,
  TestTokenArtifact,
  TetherTokenArtifact,
} from '@svc/testing';
