import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { ChainResultDto } from '../submitted/chain-result.dto';
import { PrepareRequestDto } from '../prepare/prepare-request.dto';
import { QuoteRequestDto } from '../quote/quote-request.dto';
import { SourceInputDto } from '../quote/source-input.dto';
import { SubmittedRequestDto } from '../submitted/submitted-request.dto';
import { TargetInputDto } from '../quote/target-input.dto';
import { TargetTokenInputDto } from '../quote/target-token-input.dto';
import { WalletAuthorizationInputDto } from '../submitted/wallet-authorization-input.dto';
import { WalletContextDto } from '../prepare/wallet-context.dto';
import { codeOfContext } from './coded';

const DTO_CLASSES = [
  QuoteRequestDto,
  SourceInputDto,
  TargetInputDto,
  TargetTokenInputDto,
  PrepareRequestDto,
  WalletContextDto,
  SubmittedRequestDto,
  ChainResultDto,
  WalletAuthorizationInputDto,
];

/** A constraint without a code would be reported with a fallback code instead of its own. */
describe('request DTOs', () => {
  it.each(DTO_CLASSES.map((dto) => [dto.name, dto] as const))(
    '%s tags every constraint with a registry code',
    (_, dto) => {
      const constraints = getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', false, false)
        .filter(
          (m) => m.type === ValidationTypes.CUSTOM_VALIDATION || m.type === ValidationTypes.NESTED_VALIDATION,
        );
      expect(constraints.length).toBeGreaterThan(0);
      const uncoded = constraints
        .filter((m) => codeOfContext(m.context) === undefined)
        .map((m) => m.propertyName);
      expect(uncoded).toEqual([]);
    },
  );

  it('tags all constraints of one field with the same code', () => {
    const mixed = DTO_CLASSES.flatMap((dto) => {
      const byField = new Map<string, Set<string | undefined>>();
      for (const m of getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false)) {
        if (m.type !== ValidationTypes.CUSTOM_VALIDATION && m.type !== ValidationTypes.NESTED_VALIDATION)
          continue;
        const codes = byField.get(m.propertyName) ?? new Set();
        codes.add(codeOfContext(m.context));
        byField.set(m.propertyName, codes);
      }
      return [...byField].filter(([, codes]) => codes.size > 1).map(([field]) => `${dto.name}.${field}`);
    });
    expect(mixed).toEqual([]);
  });
});
