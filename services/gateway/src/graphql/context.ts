import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import type { ApiVersion } from '@civicgraph/kit';

/** What every resolver is given: the caller, as the edge authenticated it. */
export interface GraphQLContext extends Record<PropertyKey, unknown> {
  principal: Principal;
  version: ApiVersion;
}
