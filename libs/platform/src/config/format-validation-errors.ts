import { type ValidationError } from 'class-validator';

/** Flattens class-validator errors to `field: reason` lines, naming nested fields by their JSON path. */
export function formatValidationErrors(errors: ValidationError[], parent = ''): string[] {
  const lines: string[] = [];
  for (const error of errors) {
    const field = parent
      ? /^\d+$/.test(error.property)
        ? `${parent}[${error.property}]`
        : `${parent}.${error.property}`
      : error.property;
    for (const message of Object.values(error.constraints ?? {})) lines.push(`${field}: ${message}`);
    if (error.children?.length) lines.push(...formatValidationErrors(error.children, field));
  }
  return lines;
}
