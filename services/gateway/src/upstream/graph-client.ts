import type { Principal } from '@civicgraph/protos/civic/auth/v1/auth';
import {
  GraphServiceClient,
  type BallotRequest,
  type BallotResponse,
  type Candidacy,
  type CandidacyPage,
  type Contest,
  type ContestPage,
  type ElectionDatePage,
  type ListCandidaciesRequest,
  type ListContestsRequest,
  type ListElectionDatesRequest,
  type ListOfficeholdersRequest,
  type OfficeholderPage,
} from '@civicgraph/protos/civic/graph/v1/graph';
import { ResultsServiceClient, type ContestResultsResponse } from '@civicgraph/protos/civic/results/v1/results';
import { CLIENT_OPTIONS, insecure, MuxClient } from '@civicgraph/kit';
import { principalRpc } from './principal-rpc.js';

/** The gateway's view of the graph service; every call carries the caller's principal. */
export interface GraphUpstream {
  ballot(p: Principal, req: BallotRequest): Promise<BallotResponse>;
  listContests(p: Principal, req: ListContestsRequest): Promise<ContestPage>;
  getContest(p: Principal, slug: string, minConfidence: number): Promise<Contest>;
  listCandidacies(p: Principal, req: ListCandidaciesRequest): Promise<CandidacyPage>;
  getCandidacy(p: Principal, slug: string, minConfidence: number): Promise<Candidacy>;
  listOfficeholders(p: Principal, req: ListOfficeholdersRequest): Promise<OfficeholderPage>;
  listElectionDates(p: Principal, req: ListElectionDatesRequest): Promise<ElectionDatePage>;
  close(): void;
}

/** Ballots, the hot path, travel on one StreamBallot stream (see MuxClient); the rest as unary calls. */
export function connectGraph(address: string, deadlineMs: number): GraphUpstream {
  const client = new GraphServiceClient(address, insecure(), CLIENT_OPTIONS);
  const rpc = principalRpc(client, 'graph', deadlineMs);
  const ballots = new MuxClient<BallotRequest, BallotResponse>(() => client.streamBallot(), 'graph', deadlineMs);
  return {
    ballot: (p, req) => ballots.call(p, req),
    listContests: (p, req) => rpc(client.listContests, p, req),
    getContest: (p, slug, minConfidence) => rpc(client.getContest, p, { slug, minConfidence }),
    listCandidacies: (p, req) => rpc(client.listCandidacies, p, req),
    getCandidacy: (p, slug, minConfidence) => rpc(client.getCandidacy, p, { slug, minConfidence }),
    listOfficeholders: (p, req) => rpc(client.listOfficeholders, p, req),
    listElectionDates: (p, req) => rpc(client.listElectionDates, p, req),
    close: () => {
      ballots.close();
      client.close();
    },
  };
}

/** The gateway's view of the results service. */
export interface ResultsUpstream {
  contestResults(p: Principal, contest: string): Promise<ContestResultsResponse>;
  close(): void;
}

export function connectResults(address: string, deadlineMs: number): ResultsUpstream {
  const client = new ResultsServiceClient(address, insecure(), CLIENT_OPTIONS);
  const rpc = principalRpc(client, 'results', deadlineMs);
  return {
    contestResults: (p, contest) => rpc(client.contestResults, p, { contest }),
    close: () => client.close(),
  };
}
