export {
  buildOpenApiDocument,
  OPENAPI_VERSION,
  type OpenApiDocument,
  operationPath,
  SIGNING_STRING_TEMPLATE_V2,
} from './openapi-document';
export { renderApiReferenceHtml } from './render-api-reference';
export { ERROR_CODE_OPERATIONS, OPERATION_NAMES, type OperationName } from './operations';
export type { JsonSchema } from './json-schema';
