// The one definition of how the SDK's types are generated, shared by the generate script and its test.
import openapiTS, { astToString, STRING, tsIntersection, tsLiteral, tsUnion } from 'openapi-typescript';
import ts from 'typescript';

const BANNER = `/**
 * Generated from openapi.json by openapi-typescript (packages/sdk/scripts/generate-types.mjs). Do not edit:
 * run \`npm run generate -w @openpis/sdk\` after the document changes.
 */
`;

/** \`string & {}\`: any string, without swallowing the known literals beside it in editors' completions. */
const ANY_OTHER_STRING = tsIntersection([STRING, ts.factory.createTypeLiteralNode([])]);

/**
 * An open list (\`x-extensible-enum\`: statuses, failure codes) becomes its known values or any other string
 * (\`'PENDING' | 'COMPLETED' | … | (string & {})\`): the service may add values, and a client must not break on one.
 */
function openEnum(schemaObject) {
  const known = schemaObject['x-extensible-enum'];
  if (schemaObject.type !== 'string' || !Array.isArray(known) || !known.every((value) => typeof value === 'string')) return undefined;
  return tsUnion([...known.map((value) => tsLiteral(value)), ANY_OTHER_STRING]);
}

/** TypeScript source of the document's types. \`document\` is the parsed OpenAPI 3.1 document. */
export async function generateTypes(document) {
  const ast = await openapiTS(document, { exportType: false, transform: openEnum });
  return BANNER + astToString(ast);
}
