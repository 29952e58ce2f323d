import type { Db } from 'mongodb';
import type { Publication } from '../../ports/versions.ts';
import type { Publications } from '../common/version-parts.ts';
import { isDuplicateKey } from './mongo-common.ts';

type PublicationDoc = Omit<Publication, 'seq'> & { _id: number };

const toPublication = ({ _id, ...rest }: PublicationDoc): Publication => ({ ...rest, seq: _id });

/**
 * What went into service, numbered by _id: two publishers both try the next number and exactly one
 * is inserted (see mongo-versions.ts). MongoDB features used: insertOne (duplicate key 11000), find with sort/limit.
 */
export function mongoPublications(db: Db): Publications {
  const publications = db.collection<PublicationDoc>('studio_publications');
  const latest = async (limit: number) =>
    (await publications.find({}).sort({ _id: -1 }).limit(limit).toArray()).map(toPublication);

  return {
    async publish(publication) {
      for (;;) {
        const seq = ((await latest(1))[0]?.seq ?? 0) + 1;
        const doc: PublicationDoc = {
          _id: seq,
          versionId: publication.versionId,
          previousId: publication.previousId,
          at: publication.at,
          by: publication.by,
          kind: publication.kind,
          moves: publication.moves.map((move) => ({ from: { ...move.from }, to: { ...move.to } })),
          ...(publication.message === undefined ? {} : { message: publication.message }),
        };
        try {
          await publications.insertOne(doc);
          return toPublication(doc);
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
      }
    },
    async published() {
      return (await latest(1))[0] ?? null;
    },
    async publications(limit) {
      return latest(limit);
    },
  };
}
