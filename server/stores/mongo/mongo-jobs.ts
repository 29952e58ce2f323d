import type { Db, Filter } from 'mongodb';
import type { ClaimRequest, Job, JobStatus, NewJob, Store } from '../../ports/store.ts';
import type { KeyLocks } from './key-lock.ts';
import { retryTransient } from './transient.ts';
import { COLLECTIONS, fromJson, toJson } from './mongo-common.ts';

export interface JobDoc {
  _id: string;
  kind: string;
  payload: string;
  runAt: number;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  /** Absent on jobs stored before groups existed: read as null. */
  group?: string | null;
  leaseOwner: string | null;
  leaseUntil: number | null;
  lastError: string | null;
}

function toJob(doc: JobDoc): Job {
  return {
    id: doc._id,
    kind: doc.kind,
    payload: fromJson(doc.payload),
    runAt: doc.runAt,
    status: doc.status,
    attempts: doc.attempts,
    maxAttempts: doc.maxAttempts,
    group: doc.group ?? null,
    leaseOwner: doc.leaseOwner,
    leaseUntil: doc.leaseUntil,
    lastError: doc.lastError,
  };
}

/** Rounds of find-then-claim when other workers keep winning the candidates. */
const CLAIM_ROUNDS = 5;

type JobOps = Pick<Store, 'scheduleJob' | 'getJob' | 'cancelJob' | 'claimJobs' | 'firstUnfinishedJob' | 'deferJob' | 'completeJob' | 'failJob'>;

function isClaimable(doc: JobDoc, request: ClaimRequest): boolean {
  const due =
    (doc.status === 'pending' && doc.runAt <= request.now) ||
    (doc.status === 'running' && doc.leaseUntil !== null && doc.leaseUntil <= request.now);
  return due && (request.kinds === undefined || request.kinds.includes(doc.kind));
}

/** The stored form of a newly scheduled job; turn commits write it too (mongo-turns.ts). */
export function newJobDoc(job: NewJob): JobDoc {
  return {
    _id: job.id,
    kind: job.kind,
    payload: toJson(job.payload),
    runAt: job.runAt,
    status: job.lease ? 'running' : 'pending',
    attempts: job.lease ? 1 : 0,
    maxAttempts: job.maxAttempts ?? 1,
    group: job.group ?? null,
    leaseOwner: job.lease?.owner ?? null,
    leaseUntil: job.lease?.until ?? null,
    lastError: null,
  };
}

/** A job's lock: every change of a job is made under it. */
export const lockKey = (id: string) => `job:${id}`;
const released = { leaseOwner: null, leaseUntil: null };

/*
 * Every change of a job is a read-check-write under the job's lock (see
 * key-lock.ts for why a filtered update is not enough on FerretDB). A claim
 * skips a job whose lock is taken: another worker is claiming or settling it.
 */
export function mongoJobs(db: Db, locks: KeyLocks): JobOps {
  const jobs = db.collection<JobDoc>(COLLECTIONS.jobs);

  /** Applies `change` to the job if `accept` approves the stored version; true when applied. */
  const settle = (id: string, accept: (doc: JobDoc) => Partial<JobDoc> | null) =>
    locks.withLock(lockKey(id), async () => {
      const doc = await jobs.findOne({ _id: id });
      const change = doc === null ? null : accept(doc);
      if (change === null) return false;
      await jobs.updateOne({ _id: id }, { $set: change });
      return true;
    });

  // Waits for a held lock rather than skipping the job: skipping would let a
  // later job overtake an earlier one that is only briefly locked (being
  // scheduled or claimed elsewhere). Once inside, a job another worker took is
  // no longer claimable and is passed over.
  const claimOne = (id: string, request: ClaimRequest) =>
    locks.withLock(
      lockKey(id),
      async (): Promise<Job | null> => {
        const doc = await jobs.findOne({ _id: id });
        if (doc === null || !isClaimable(doc, request)) return null;
        const claimed: JobDoc = {
          ...doc,
          status: 'running',
          attempts: doc.attempts + 1,
          leaseOwner: request.workerId,
          leaseUntil: request.now + request.leaseMs,
        };
        await jobs.replaceOne({ _id: id }, claimed);
        return toJob(claimed);
      },
    );

  return {
    async scheduleJob(job) {
      const fresh = newJobDoc(job);
      return locks.withLock(lockKey(job.id), async () => {
        const current = await jobs.findOne({ _id: job.id }, { projection: { status: 1 } });
        if (current?.status === 'running') return false;
        await jobs.replaceOne({ _id: job.id }, fresh, { upsert: true });
        return true;
      });
    },

    async getJob(id) {
      const doc = await jobs.findOne({ _id: id });
      return doc === null ? null : toJob(doc);
    },

    cancelJob: (id) =>
      settle(id, (doc) =>
        doc.status === 'pending' || doc.status === 'running' ? { status: 'cancelled', ...released } : null,
      ),

    async claimJobs(request) {
      if (request.limit <= 0 || request.kinds?.length === 0) return [];
      const due: Filter<JobDoc> = {
        $or: [
          { status: 'pending', runAt: { $lte: request.now } },
          { status: 'running', leaseUntil: { $lte: request.now } },
        ],
        ...(request.kinds === undefined ? {} : { kind: { $in: [...request.kinds] } }),
      };
      const claimed: Job[] = [];
      for (let round = 0; round < CLAIM_ROUNDS && claimed.length < request.limit; round += 1) {
        // The cursor read alone is retried: retrying the whole claim would forget the jobs already claimed.
        const candidates = await retryTransient(() =>
          jobs
            .find(due, { projection: { _id: 1 } })
            .sort({ runAt: 1, _id: 1 })
            .limit(request.limit - claimed.length)
            .toArray(),
        );
        if (candidates.length === 0) break;
        for (const candidate of candidates) {
          const job = await claimOne(candidate._id, request);
          if (job !== null) claimed.push(job);
        }
      }
      return claimed;
    },

    async firstUnfinishedJob(group, afterId, beforeId) {
      const doc = await jobs.findOne(
        { group, _id: { $gt: afterId, $lt: beforeId }, status: { $in: ['pending', 'running'] } },
        { sort: { _id: 1 } },
      );
      return doc === null ? null : toJob(doc);
    },

    deferJob: (id, workerId, runAt) =>
      settle(id, (doc) =>
        doc.status === 'running' && doc.leaseOwner === workerId
          ? // The claim counted an attempt; a job that only waited gives it back.
            { status: 'pending', runAt, attempts: Math.max(doc.attempts - 1, 0), ...released }
          : null,
      ),

    completeJob: (id, workerId) =>
      settle(id, (doc) =>
        doc.status === 'running' && doc.leaseOwner === workerId ? { status: 'done', ...released } : null,
      ),

    failJob: (id, workerId, error, retryAt) =>
      settle(id, (doc) => {
        if (doc.status !== 'running' || doc.leaseOwner !== workerId) return null;
        return retryAt !== null && doc.attempts < doc.maxAttempts
          ? { status: 'pending', runAt: retryAt, lastError: error, ...released }
          : { status: 'dead', lastError: error, ...released };
      }),
  };
}
