import { nullable, object, ref, type JsonSchema } from '../schema/json-schema.js';

/** DESIGN's list envelope `{data, next_cursor}` around items of component `item`. */
function listOf(item: string, description: string): JsonSchema {
  return object(
    {
      data: { type: 'array', items: ref(item) },
      next_cursor: nullable({
        type: 'string',
        description: 'Pass as `cursor` (with the same filters) for the next page; null on the last page.',
      }),
    },
    [],
    description,
  );
}

/** The list envelopes of the paged endpoints. */
export const schemas: Record<string, JsonSchema> = {
  ContestList: listOf('ContestSummary', 'A page of contests (without their candidacies).'),
  CandidacyList: listOf('Candidacy', 'A page of candidacies.'),
  OfficeholderList: listOf('Officeholder', 'A page of officeholder terms.'),
  ElectionDateList: listOf('ElectionDate', 'A page of election days.'),
};
