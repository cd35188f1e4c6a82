import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import {
  GraphServiceClient,
  type BallotAnswer,
  type BallotRequest,
  type BallotResponse,
  type Candidacy,
  type CandidacyPage,
  type Contest,
  type ContestPage,
  type CypherRequest,
  type CypherResponse,
  type CypherSchemaResponse,
  type ElectionDatePage,
  type ListCandidaciesRequest,
  type ListContestsRequest,
  type ListElectionDatesRequest,
  type ListOfficeholdersRequest,
  type OfficeholderPage,
} from '@civicgraph/protos/civic/graph/v1/graph';
import { ResultsServiceClient, type ContestResultsResponse } from '@civicgraph/protos/civic/results/v1/results';
import { clientOptions, cypherBudget, insecure } from '@civicgraph/kit';
import { rpcOf } from './rpc.js';
import { TurnBatcher, type Outcome } from './turn-batcher.js';
import type { BallotMemo } from './ballot-memo.js';

/**
 * Most ballots one Ballots call carries. The ballots of one event-loop turn that the memo
 * does not hold leave as one unary call (TurnBatcher): a unary gRPC call costs more than
 * rendering the ballot it carries.
 */
const BALLOTS_PER_CALL = 64;

/** Time past a Cypher query's own budget for its answer to arrive. */
const CYPHER_GRACE_MS = 2_000;

/** The gateway's view of the graph service; every call carries the caller's principal. */
export interface GraphUpstream {
  ballot(p: Principal, req: BallotRequest): Promise<BallotResponse>;
  listContests(p: Principal, req: ListContestsRequest): Promise<ContestPage>;
  getContest(p: Principal, slug: string, minConfidence: number): Promise<Contest>;
  listCandidacies(p: Principal, req: ListCandidaciesRequest): Promise<CandidacyPage>;
  getCandidacy(p: Principal, slug: string, minConfidence: number): Promise<Candidacy>;
  listOfficeholders(p: Principal, req: ListOfficeholdersRequest): Promise<OfficeholderPage>;
  listElectionDates(p: Principal, req: ListElectionDatesRequest): Promise<ElectionDatePage>;
  cypher(p: Principal, req: CypherRequest): Promise<CypherResponse>;
  cypherSchema(p: Principal): Promise<CypherSchemaResponse>;
  close(): void;
}

/** The graph's client; ballots are remembered in `memo`, which the caller empties on data-change events (cache/invalidator.ts). */
export function connectGraph(address: string, deadlineMs: number, memo: BallotMemo): GraphUpstream {
  const client = new GraphServiceClient(address, insecure(), clientOptions(deadlineMs));
  const rpc = rpcOf(client, 'graph');
  const ballots = new TurnBatcher<BallotRequest, BallotResponse>(async (p, batch) => {
    const { answers } = await rpc(client.ballots, { ballots: batch }, p);
    return answers.map(outcomeOf);
  }, BALLOTS_PER_CALL);
  return {
    ballot: (p, req) => memo.answer(p, req, () => ballots.ask(p, req)),
    listContests: (p, req) => rpc(client.listContests, req, p),
    getContest: (p, slug, minConfidence) => rpc(client.getContest, { slug, minConfidence }, p),
    listCandidacies: (p, req) => rpc(client.listCandidacies, req, p),
    getCandidacy: (p, slug, minConfidence) => rpc(client.getCandidacy, { slug, minConfidence }, p),
    listOfficeholders: (p, req) => rpc(client.listOfficeholders, req, p),
    listElectionDates: (p, req) => rpc(client.listElectionDates, req, p),
    // A query runs as long as its plan allows (kit cypherBudget), longer than other calls' deadline.
    cypher: (p, req) => rpc(client.cypher, req, p, { deadline: Date.now() + cypherBudget(p).timeMs + CYPHER_GRACE_MS }),
    cypherSchema: (p) => rpc(client.cypherSchema, {}, p),
    close: () => client.close(),
  };
}

function outcomeOf(a: BallotAnswer): Outcome<BallotResponse> {
  if (a.error !== undefined) return { error: a.error };
  if (a.ballot !== undefined) return { value: a.ballot };
  return { error: { type: 'internal', message: 'The graph answered neither a ballot nor an error.', field: '' } };
}

/** The gateway's view of the results service. */
export interface ResultsUpstream {
  contestResults(p: Principal, contest: string): Promise<ContestResultsResponse>;
  close(): void;
}

export function connectResults(address: string, deadlineMs: number): ResultsUpstream {
  const client = new ResultsServiceClient(address, insecure(), clientOptions(deadlineMs));
  const rpc = rpcOf(client, 'results');
  return {
    contestResults: (p, contest) => rpc(client.contestResults, { contest }, p),
    close: () => client.close(),
  };
}
