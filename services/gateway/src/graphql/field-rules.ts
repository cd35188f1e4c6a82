import { Kind, parse, type ConstDirectiveNode, type DefinitionNode } from 'graphql';
import { ENTITLEMENT_NAMES, type EntitlementName } from '@civicgraph/kit';

/**
 * What the subschemas' SDL says of their fields, by schema coordinate (`Candidacy.campaignEmails`,
 * `Query.ballotAtPoint`): the entitlement a field exists for (`@entitlement`) and how many
 * items a list field is expected to hold (`@listSize`). The services own these facts in
 * protos/graphql; the policy module decides what a principal holds.
 */
export interface FieldRules {
  entitlements: ReadonlyMap<string, EntitlementName>;
  listSizes: ReadonlyMap<string, number>;
}

function stringArg(d: ConstDirectiveNode, name: string): string | undefined {
  const arg = d.arguments?.find((a) => a.name.value === name);
  return arg?.value.kind === Kind.STRING ? arg.value.value : undefined;
}

function intArg(d: ConstDirectiveNode, name: string): number | undefined {
  const arg = d.arguments?.find((a) => a.name.value === name);
  return arg?.value.kind === Kind.INT ? Number(arg.value.value) : undefined;
}

function fieldsOf(def: DefinitionNode) {
  const objectLike =
    def.kind === Kind.OBJECT_TYPE_DEFINITION ||
    def.kind === Kind.OBJECT_TYPE_EXTENSION ||
    def.kind === Kind.INTERFACE_TYPE_DEFINITION ||
    def.kind === Kind.INTERFACE_TYPE_EXTENSION;
  return objectLike
    ? (def.fields ?? []).map((f) => ({
        coordinate: `${def.name.value}.${f.name.value}`,
        directives: f.directives ?? [],
      }))
    : [];
}

/** The rules declared across `sdls`; an unknown entitlement name is a contract error. */
export function fieldRules(sdls: readonly string[]): FieldRules {
  const entitlements = new Map<string, EntitlementName>();
  const listSizes = new Map<string, number>();
  for (const sdl of sdls) {
    for (const def of parse(sdl).definitions) {
      for (const { coordinate, directives } of fieldsOf(def)) {
        for (const d of directives) {
          if (d.name.value === 'entitlement') {
            const name = stringArg(d, 'name') as EntitlementName | undefined;
            if (name === undefined || !ENTITLEMENT_NAMES.includes(name))
              throw new Error(`${coordinate}: @entitlement names no known entitlement`);
            entitlements.set(coordinate, name);
          } else if (d.name.value === 'listSize') {
            const size = intArg(d, 'assumedSize');
            if (size === undefined || size < 0)
              throw new Error(`${coordinate}: @listSize needs a non-negative assumedSize`);
            listSizes.set(coordinate, size);
          }
        }
      }
    }
  }
  return { entitlements, listSizes };
}
