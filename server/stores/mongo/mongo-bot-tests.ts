import type { Db } from 'mongodb';
import type { BotTestsRoom, StoredBotTests } from '../../ports/bot-tests.ts';

const COLLECTION = 'studio_bot_tests';
const ID = 'tests';

interface TestsDoc {
  _id: string;
  body: string;
  revision: number;
  updatedAt: number;
  updatedBy: string;
}

const fromDoc = (doc: TestsDoc): StoredBotTests => ({
  body: doc.body,
  revision: doc.revision,
  updatedAt: doc.updatedAt,
  updatedBy: doc.updatedBy,
});

/** The bot's tests on MongoDB: one document, replaced on a revision check (no index beyond _id). */
export function mongoBotTests(db: Db): BotTestsRoom {
  const docs = db.collection<TestsDoc>(COLLECTION);
  return {
    async read() {
      const doc = await docs.findOne({ _id: ID });
      return doc ? fromDoc(doc) : null;
    },
    async write(body, expected, by, at) {
      if (expected === null) {
        try {
          const doc: TestsDoc = { _id: ID, body, revision: 1, updatedAt: at, updatedBy: by };
          await docs.insertOne(doc);
          return fromDoc(doc);
        } catch (error) {
          // Another save made the first document meanwhile.
          if ((error as { code?: number }).code === 11000) return 'conflict';
          throw error;
        }
      }
      const doc = await docs.findOneAndUpdate(
        { _id: ID, revision: expected },
        { $set: { body, updatedAt: at, updatedBy: by }, $inc: { revision: 1 } },
        { returnDocument: 'after' },
      );
      return doc ? fromDoc(doc) : 'conflict';
    },
  };
}
