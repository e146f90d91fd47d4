import { Matches } from 'class-validator';
import { coded } from '../validation/coded';

/** 65-byte ECDSA signature (r, s, v); contract-wallet signatures have other lengths and are rejected later. */
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/** spec: SubmittedRequest.walletAuthorization. */
export class WalletAuthorizationInputDto {
  @Matches(
    SIGNATURE,
    coded('invalid_wallet_authorization', 'must be 0x followed by 130 hex characters (a 65-byte signature)'),
  )
  signature!: string;
}
