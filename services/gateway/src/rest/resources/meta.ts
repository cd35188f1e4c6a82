import { LAYER_STATUS_MEANINGS } from '../meta-layers.js';
import { nullable, object, ref, type JsonSchema } from '../schema/json-schema.js';

const STATUS_WORDS = Object.keys(LAYER_STATUS_MEANINGS);
const status = (description: string): JsonSchema => ({ type: 'string', enum: STATUS_WORDS, description });

/** The body of /v1/meta/layers (view in meta-layers.ts). */
export const schemas: Record<string, JsonSchema> = {
  Layer: object(
    {
      name: { type: 'string', description: 'The layer, e.g. `rest`, `graphql`.' },
      data: status("Whether the layer's data is real and current."),
      api: status('Whether the layer can be called.'),
      path: nullable({ type: 'string', description: 'Where the layer is served; null until it ships.' }),
      description: { type: 'string' },
      available_to_key: {
        type: 'boolean',
        description:
          "Whether the calling key's plan includes the layer (Cypher, agent, webhooks and bulk export need Build or Enterprise); a key without it gets `plan_required`.",
      },
    },
    [],
    'One query layer and where it stands.',
  ),
  LayerList: object(
    {
      data: { type: 'array', items: ref('Layer') },
      statuses: object(
        Object.fromEntries(STATUS_WORDS.map((w) => [w, { type: 'string' } as JsonSchema])),
        [],
        'What each status word means.',
      ),
      next_cursor: { type: 'null', description: 'Always null: one page.' },
    },
    [],
    'Every query layer with its data and api status.',
  ),
};
