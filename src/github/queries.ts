/** The GraphQL queries of the GitHub adapters, with the shapes of their answers. */

export interface GraphActor {
  login: string;
  __typename?: string;
}

interface Labels {
  nodes: { name: string }[];
}

interface GraphRepository {
  databaseId: number | null;
  nameWithOwner: string;
  isPrivate: boolean;
  visibility: string | null;
  primaryLanguage: { name: string } | null;
}

export interface GraphIssue {
  number: number;
  url: string;
  title: string;
  body: string | null;
  labels: Labels;
  author: GraphActor | null;
}

interface GraphCheckRun {
  name: string;
  conclusion: string | null;
  databaseId: number | null;
}

const REPOSITORY_FIELDS = 'databaseId nameWithOwner isPrivate visibility primaryLanguage { name }';
const ISSUE_FIELDS = 'number url title body labels(first: 20) { nodes { name } } author { login __typename }';

/** A merged PR with its commits (and their checks) and the issues it closed: one request. */
export const PULL_REQUEST_QUERY = `
query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    ${REPOSITORY_FIELDS}
    pullRequest(number: $number) {
      number url title body merged mergedAt changedFiles
      mergeCommit { oid }
      author { login __typename }
      mergedBy { login __typename }
      labels(first: 20) { nodes { name } }
      commits(last: 30) {
        nodes {
          commit {
            oid message
            checkSuites(first: 10) { nodes { checkRuns(first: 30) { nodes { name conclusion databaseId } } } }
          }
        }
      }
      closingIssuesReferences(first: 5) { nodes { ${ISSUE_FIELDS} } }
    }
  }
}`;

export interface PullRequestQuery {
  repository:
    | (GraphRepository & {
        pullRequest: {
          number: number;
          url: string;
          title: string;
          body: string | null;
          merged: boolean;
          mergedAt: string | null;
          changedFiles: number;
          mergeCommit: { oid: string } | null;
          author: GraphActor | null;
          mergedBy: GraphActor | null;
          labels: Labels;
          commits: {
            nodes: {
              commit: {
                oid: string;
                message: string;
                checkSuites: { nodes: { checkRuns: { nodes: GraphCheckRun[] } }[] } | null;
              };
            }[];
          };
          closingIssuesReferences: { nodes: GraphIssue[] };
        } | null;
      })
    | null;
}

/** The PRs that closed an issue (GitHub's closing references, merged or not). */
export const ISSUE_CLOSERS_QUERY = `
query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    issue(number: $number) {
      stateReason
      closedByPullRequestsReferences(first: 5, includeClosedPrs: true) {
        nodes { number merged mergeCommit { oid } repository { databaseId nameWithOwner } }
      }
    }
  }
}`;

export interface IssueClosersQuery {
  repository: {
    issue: {
      stateReason: string | null;
      closedByPullRequestsReferences: {
        nodes: {
          number: number;
          merged: boolean;
          mergeCommit: { oid: string } | null;
          repository: { databaseId: number | null; nameWithOwner: string };
        }[];
      };
    } | null;
  } | null;
}

/**
 * Backfill: a page of merged PRs (newest first) with their labels, first 100 paths and closing
 * issues, so one request covers up to 50 PRs.
 */
export const MERGED_PULL_REQUESTS_QUERY = `
query($owner: String!, $name: String!, $first: Int!, $after: String) {
  rateLimit { remaining resetAt cost }
  repository(owner: $owner, name: $name) {
    ${REPOSITORY_FIELDS}
    pullRequests(states: MERGED, first: $first, after: $after, orderBy: { field: UPDATED_AT, direction: DESC }) {
      totalCount
      pageInfo { hasNextPage endCursor }
      nodes {
        number url title body mergedAt changedFiles
        mergeCommit { oid }
        author { login __typename }
        mergedBy { login __typename }
        labels(first: 20) { nodes { name } }
        files(first: 100) { nodes { path } }
        closingIssuesReferences(first: 5) { nodes { ${ISSUE_FIELDS} } }
      }
    }
  }
}`;

export interface MergedPullRequestNode {
  number: number;
  url: string;
  title: string;
  body: string | null;
  mergedAt: string | null;
  changedFiles: number;
  mergeCommit: { oid: string } | null;
  author: GraphActor | null;
  mergedBy: GraphActor | null;
  labels: Labels;
  files: { nodes: { path: string }[] } | null;
  closingIssuesReferences: { nodes: GraphIssue[] };
}

export interface MergedPullRequestsQuery {
  rateLimit?: { remaining: number; resetAt: string; cost: number } | null;
  repository:
    | (GraphRepository & {
        pullRequests: {
          totalCount: number;
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
          nodes: MergedPullRequestNode[];
        };
      })
    | null;
}
