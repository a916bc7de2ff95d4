// The one definition of how the SDK's types are generated, shared by the generate script and its test.
import openapiTS, { astToString } from 'openapi-typescript';

const BANNER = `/**
 * Generated from openapi.json by openapi-typescript (packages/sdk/scripts/generate-types.mjs). Do not edit:
 * run \`npm run generate -w @openpis/sdk\` after the document changes.
 */
`;

/** TypeScript source of the document's types. `document` is the parsed OpenAPI 3.1 document. */
export async function generateTypes(document) {
  const ast = await openapiTS(document, { exportType: false });
  return BANNER + astToString(ast);
}
