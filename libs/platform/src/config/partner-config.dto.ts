import { PROVIDER_NAMES, type ProviderName } from '@svc/contract';
import {
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';

/** One entry of PARTNERS_FILE, as written (secret or secretEnv, defaults not yet applied). */
export class PartnerConfigEntry {
  @IsString()
  @Length(1, 64)
  @Matches(/^\S(.*\S)?$/, { message: 'partnerId must not start or end with whitespace' })
  partnerId!: string;

  @IsOptional()
  @IsString()
  @Length(16, 1024, { message: 'secret must be 16 to 1024 characters' })
  secret?: string;

  @IsOptional()
  @IsString()
  @Matches(/^[A-Z_][A-Z0-9_]*$/, { message: 'secretEnv must name an environment variable' })
  secretEnv?: string;

  /**
   * During a secret rotation: the variable holding the secret being retired. Requests signed with it still verify;
   * webhooks are signed with the current secret only. Remove it to end the rotation (docs/partners/signing.md).
   */
  @IsOptional()
  @IsString()
  @Matches(/^[A-Z_][A-Z0-9_]*$/, { message: 'previousSecretEnv must name an environment variable' })
  previousSecretEnv?: string;

  @IsIn([1, 2])
  authVersion!: 1 | 2;

  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  callbackUrl?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10000)
  maxFeeBps?: number;

  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(PROVIDER_NAMES, { each: true })
  allowedProviders?: ProviderName[];

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  rateLimitPerMinute?: number;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  /** Off by default: see PartnerConfig.acceptEstimatedSettlement. */
  @IsOptional()
  @IsBoolean()
  acceptEstimatedSettlement?: boolean;
}

export class PartnersFile {
  /** Marks a file for development only (config/partners.dev.json): refused with NODE_ENV=production. */
  @IsOptional()
  @IsBoolean()
  development?: boolean;

  @IsArray()
  @ValidateNested({ each: true })
  partners!: PartnerConfigEntry[];
}

/**
 * The parsed file as the instances class-validator checks: the file object a PartnersFile, each object in `partners`
 * a PartnerConfigEntry (so `@ValidateNested` finds its rules); arrays are mapped, every other value is kept as
 * written (`"10"` stays a string and fails `@IsInt`). `__proto__` and `constructor` keys are not copied: they would
 * swap the class the rules are looked up by.
 */
export function partnersFileOf(raw: unknown): unknown {
  return instanceOf(PartnersFile, raw, (file) => {
    if ('partners' in file)
      file.partners = instanceOf(PartnerConfigEntry, file.partners) as PartnerConfigEntry[];
  });
}

function instanceOf<T extends object>(
  cls: new () => T,
  value: unknown,
  nested?: (instance: T) => void,
): unknown {
  if (Array.isArray(value)) return value.map((item) => instanceOf(cls, item, nested));
  if (typeof value !== 'object' || value === null) return value;
  const instance = new cls() as Record<string, unknown>;
  for (const [key, field] of Object.entries(value))
    if (key !== '__proto__' && key !== 'constructor') instance[key] = field;
  nested?.(instance as T);
  return instance;
}
