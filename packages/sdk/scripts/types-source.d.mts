/** TypeScript source of the document's types. `document` is the parsed OpenAPI 3.1 document. */
export function generateTypes(document: unknown): Promise<string>;
