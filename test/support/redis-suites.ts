import { TEST_REDIS_CLUSTER_NODES } from './test-env';

/**
 * For tests of one Redis's outages (an unreachable address, a proxy cut between an app and Redis): the
 * cluster run leaves them to the single-Redis run, since a cluster's nodes announce their own addresses.
 */
export const describeOnOneRedis = TEST_REDIS_CLUSTER_NODES ? describe.skip : describe;
export const itOnOneRedis = TEST_REDIS_CLUSTER_NODES ? it.skip : it;

/** For what only a cluster can show: the single-Redis run skips it. */
export const describeOnCluster = TEST_REDIS_CLUSTER_NODES ? describe : describe.skip;
