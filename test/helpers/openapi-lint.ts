/**
 * The two OpenAPI linters integrators use, through their library APIs: Redocly (`recommended-strict`) and Spectral
 * (`spectral:oas`). Each returns its findings as `<rule> <where>: <message>` lines, empty when the document is clean.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document, Spectral } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';

export async function redoclyFindings(documentText: string): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended-strict'] });
  const problems = await lintFromString({ source: documentText, absoluteRef: 'openapi.json', config });
  return problems.map(
    (problem) => `${problem.ruleId} ${problem.location.map((location) => location.pointer).join(' ')}: ${problem.message}`,
  );
}

export async function spectralFindings(documentText: string): Promise<string[]> {
  const spectral = new Spectral();
  // `spectral:oas`: the OpenAPI ruleset's recommended rules, as the CLI's `extends: spectral:oas` gives them.
  spectral.setRuleset({ extends: [oas] } as Parameters<Spectral['setRuleset']>[0]);
  const results = await spectral.run(new Document(documentText, spectralParsers.Json, 'openapi.json'));
  return results.map((result) => `${String(result.code)} ${result.path.join('.')}: ${result.message}`);
}
