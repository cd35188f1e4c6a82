/**
 * Which ArangoDB the integration tests use, decided from three facts (DESIGN "Tests", with
 * one deliberate difference from the NATS rule):
 * - ARANGO_URL set and answering: use it.
 * - ARANGO_URL set and not answering: FAIL — someone asked for that server.
 * - ARANGO_URL unset, a Docker engine present: start `arangodb:3.12` with testcontainers.
 * - neither: SKIP LOUDLY, even when CIVIC_REQUIRE_SERVICES=1. That variable makes CI fail
 *   without NATS; CI has no Docker engine and no ArangoDB, so failing there would only
 *   ever block it. Whoever wants the suite sets ARANGO_URL.
 * Pure, so the rule is tested without ArangoDB (arango-test-target.int.test.ts; the probe
 * meets a loopback HTTP server, hence the integration tier).
 */

/** The command that runs the suite against a local server. */
export const ARANGO_RUN_HINT = 'ARANGO_URL=http://127.0.0.1:8529 npx vitest run services/graph/src/store/arango';
/** The image testcontainers starts, also the one the README's `docker run` names. */
export const ARANGO_IMAGE = 'arangodb:3.12';

export interface ArangoTestFacts {
  /** ARANGO_URL, when set and not blank. */
  url: string | undefined;
  /** Whether the server at `url` answered; only looked at when `url` is set. */
  reachable: boolean;
  /** Why it did not answer. */
  unreachableReason?: string;
  /** Whether a Docker engine answered; only looked at when `url` is unset. */
  dockerAvailable: boolean;
}

export type ArangoTestPlan =
  | { action: 'use-url'; url: string }
  | { action: 'start-container'; image: string }
  | { action: 'fail'; message: string }
  | { action: 'skip'; message: string };

export function planArangoTests(f: ArangoTestFacts): ArangoTestPlan {
  if (f.url !== undefined) {
    if (f.reachable) return { action: 'use-url', url: f.url };
    return {
      action: 'fail',
      message: `ARANGO_URL is set to ${f.url} but ArangoDB does not answer there (${f.unreachableReason ?? 'no reason given'}). Start it, or unset ARANGO_URL to skip these tests.`,
    };
  }
  if (f.dockerAvailable) return { action: 'start-container', image: ARANGO_IMAGE };
  return {
    action: 'skip',
    message:
      'SKIPPING the ArangoDB GraphStore conformance suite: ARANGO_URL is not set and no Docker engine answered for testcontainers ' +
      `(CIVIC_REQUIRE_SERVICES does not apply to ArangoDB). To run it: docker run -d -p 8529:8529 -e ARANGO_NO_AUTH=1 ${ARANGO_IMAGE}, then ${ARANGO_RUN_HINT}`,
  };
}

/** ARANGO_URL as a fact: unset and blank are the same. */
export function arangoUrlFrom(env: NodeJS.ProcessEnv): string | undefined {
  const url = env.ARANGO_URL?.trim();
  return url === undefined || url === '' ? undefined : url;
}
