import { IsObject } from 'class-validator';
import { coded } from '../validation/coded';
import { IsOptionalField } from '../validation/is-optional-field.decorator';
import { IsStringOfLength } from '../validation/is-string-of-length.decorator';
import { PREPARE_LIMITS } from './prepare-limits';

const { maxConnectorFieldLength: MAX } = PREPARE_LIMITS;
const CONNECTOR = coded('invalid_wallet_context', `must be a string of at most ${MAX} characters`);

/** spec: PrepareRequest.walletContext. */
export class WalletContextDto {
  @IsOptionalField()
  @IsStringOfLength(0, MAX, CONNECTOR)
  connectorName?: string;

  @IsOptionalField()
  @IsStringOfLength(0, MAX, CONNECTOR)
  connectorId?: string;

  /** The wallet's own capabilities answer, unmodified: any JSON object, never inspected here. */
  @IsOptionalField()
  @IsObject(
    coded('invalid_wallet_context', 'must be a JSON object (the wallet capabilities result, unmodified)'),
  )
  walletCapabilities?: Record<string, unknown>;
}
